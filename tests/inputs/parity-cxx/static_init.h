#pragma once
#include <string>

// Construct-on-first-use: safe from another object's static initializer.
std::string &registry();
void note(const char *What);

struct Noisy {
  const char *Name;
  explicit Noisy(const char *N);
  ~Noisy();
};
