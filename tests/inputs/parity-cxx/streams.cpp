// stdout through both C and C++ streams (one buffer while synchronized),
// unitbuf, put/write, long output, flags set by setf, getline, quoted,
// stderr through cerr, clog and fprintf, cout from a static destructor,
// then sync_with_stdio(false).
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
struct Late {
  ~Late() {
    std::cout << "cout in a static destructor" << std::endl;
    std::printf("printf too\n");
  }
} L;
int main(int argc, char **argv) {
  std::cout << "one ";
  std::printf("two ");
  std::cout << "three\n";
  std::fputs("four\n", stdout);
  std::cout << std::unitbuf << "unit" << std::nounitbuf << '\n';
  std::cerr << "err1 ";
  std::fprintf(stderr, "err2 ");
  std::clog << "clog\n";
  std::cout.put('p').write("written", 4) << '\n';
  std::cout << std::string(5000, 'x').size() << '\n';
  for (int i = 0; i < 2000; ++i)
    std::cout << i % 10;
  std::cout << '\n';
  std::cout.setf(std::ios::showpos | std::ios::uppercase);
  std::cout << 1.5e-7 << ' ' << 255 << '\n';
  std::cout.unsetf(std::ios::showpos | std::ios::uppercase);
  std::stringstream SS("line1\nline2\n\nline4");
  std::string Line;
  int N = 0;
  while (std::getline(SS, Line))
    std::cout << ++N << '[' << Line << ']';
  std::cout << '\n';
  std::cout << std::quoted("a \"b\" c") << ' ' << std::left << std::setw(6) << std::setfill('.') << "ab" << '|' << '\n';
  std::cout << argv[0] << ' ' << argc << '\n';
  std::ios::sync_with_stdio(false);
  std::cout << "after unsync" << std::endl;
  return 0;
}
