// The standard library's everyday parts: iostream formatting, string,
// vector, map, algorithms, stringstream.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  std::vector<std::string> Words = {"pear", "apple", "fig", "banana", "cherry", "apple"};
  for (int I = 1; I < argc; ++I)
    Words.push_back(argv[I]);
  std::sort(Words.begin(), Words.end());
  Words.erase(std::unique(Words.begin(), Words.end()), Words.end());
  std::map<std::string, size_t> Lengths;
  for (auto &W : Words)
    Lengths[W] = W.size();
  for (auto &[W, N] : Lengths)
    std::cout << std::setw(8) << std::left << W << '|' << std::right << std::setw(3) << N << '\n';

  std::vector<double> V(10);
  std::iota(V.begin(), V.end(), 0.5);
  double Sum = std::accumulate(V.begin(), V.end(), 0.0);
  std::cout << "sum " << Sum << " mean " << std::fixed << std::setprecision(3) << Sum / V.size() << '\n';
  std::cout << std::scientific << 1234.5678 << ' ' << std::hexfloat << 0.1 << std::defaultfloat << ' ' << 1e100
            << '\n';
  std::cout << std::hex << std::showbase << 255 << ' ' << std::oct << 8 << std::dec << ' ' << -42 << '\n';

  std::ostringstream OS;
  OS << "pi=" << std::setprecision(10) << 3.14159265358979 << ";";
  std::string S = OS.str();
  std::cout << S << " length " << S.size() << " find " << S.find('=') << '\n';
  std::istringstream IS("12 34 oops 56");
  int A, B, C = -1;
  IS >> A >> B;
  bool Failed = !(IS >> C);
  std::cout << A + B << ' ' << Failed << ' ' << C << '\n';

  std::string Up = "Hello, World";
  std::transform(Up.begin(), Up.end(), Up.begin(), [](unsigned char Ch) { return char(std::toupper(Ch)); });
  std::cout << Up << ' ' << std::to_string(42) + "!" << ' ' << std::stoi("-17") * 2 << '\n';
  std::cerr << "to stderr " << Words.size() << std::endl;
  return int(Words.size());
}
