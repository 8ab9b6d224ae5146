#include "static_init.h"

#include <cstdio>
#include <cstdlib>

Noisy B1("b1");

struct Counter {
  int N;
  Counter() : N(int(registry().size())) { std::printf("counter sees %d bytes\n", N); }
  ~Counter() { std::printf("counter gone\n"); }
};
static Counter C;

static void atexitB() { std::puts("atexit b"); }
static int Registered = (std::atexit(atexitB), 0);

int bValue() {
  static Noisy Lazy("lazy-b");
  return C.N;
}
