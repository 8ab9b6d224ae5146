// Thrown from here, caught in throw_main.cpp: unwinding crosses objects.
#include "throw_lib.h"

#include <iostream>
#include <stdexcept>
#include <vector>

Guard::~Guard() { std::cout << "  ~Guard " << Name << '\n'; }

int parsePositive(const std::string &S) {
  Guard G{"parse"};
  int V = std::stoi(S); // std::invalid_argument for "x"
  if (V <= 0)
    throw BadValue(V);
  return V;
}

int depth(int N) {
  Guard G{"depth" + std::to_string(N)};
  if (N == 0)
    throw std::runtime_error("bottom reached");
  return depth(N - 1) + 1;
}

int checkedAt(const std::vector<int> &V, size_t I) { return V.at(I); }

void rethrowAsLogic() {
  try {
    depth(1);
  } catch (const std::exception &E) {
    std::cout << "  translating: " << E.what() << '\n';
    std::throw_with_nested(std::logic_error("translated"));
  }
}
