// std::cin (fed through a pipe, cin.stdin): formatted extraction, getline
// and end of file.
#include <iostream>
#include <string>
#include <vector>

int main() {
  std::string Name;
  int Count = 0;
  std::cin >> Name >> Count;
  std::cout << "name " << Name << ", count " << Count << "\n";
  std::vector<double> Values(Count);
  double Sum = 0;
  for (double &V : Values)
    std::cin >> V, Sum += V;
  std::cout << "sum " << Sum << "\n";
  std::string Line;
  std::getline(std::cin, Line); // the rest of the numbers' line
  int Lines = 0;
  while (std::getline(std::cin, Line))
    std::cout << ++Lines << ": " << Line << "\n";
  std::cout << "eof " << std::cin.eof() << "\n";
}
