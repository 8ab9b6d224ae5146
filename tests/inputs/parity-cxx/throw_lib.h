#pragma once
#include <stdexcept>
#include <string>
#include <vector>

struct Guard {
  std::string Name;
  ~Guard();
};

struct BadValue : std::domain_error {
  int Value;
  explicit BadValue(int V) : std::domain_error("bad value " + std::to_string(V)), Value(V) {}
};

int parsePositive(const std::string &S);
int depth(int N);
int checkedAt(const std::vector<int> &V, size_t I);
void rethrowAsLogic();
