// A static constructor throwing before main: terminate (SIGABRT); what
// the earlier constructors printed is lost with the unflushed stdout.
#include <cstdio>
#include <stdexcept>
struct Bad {
  Bad() {
    std::puts("Bad ctor");
    throw std::runtime_error("static ctor failed");
  }
};
struct Good {
  Good() { std::puts("Good ctor"); }
  ~Good() { std::puts("Good dtor"); }
};
Good g;
Bad b;
int main() { std::puts("main"); }
