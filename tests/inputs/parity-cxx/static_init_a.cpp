// Static constructors and destructors across objects: globals in link
// order, init_priority first, function-local statics on first use,
// destructors and atexit handlers in reverse order of registration.
#include "static_init.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>

std::string &registry() {
  static std::string R = "[registry]";
  return R;
}

void note(const char *What) {
  registry() += ' ';
  registry() += What;
}

Noisy::Noisy(const char *N) : Name(N) {
  std::printf("construct %s\n", Name);
  note(Name);
}
Noisy::~Noisy() { std::printf("destroy %s\n", Name); }

Noisy A1("a1");
__attribute__((init_priority(1000))) Noisy Early("early");
static Noisy A2("a2");

static void atexitA() { std::puts("atexit a"); }
static int Registered = (std::atexit(atexitA), 0);

extern int bValue();

int main() {
  std::cout << "main: " << registry() << '\n';
  static Noisy Local("local");
  int B = bValue();
  std::cout << "b says " << B << std::endl;
  return 3;
}
