#include <cstdio>
#include <string>
thread_local int plainTls = 11;
thread_local std::string dynTls = std::string("dyn") + std::to_string(plainTls);
thread_local int lateTls = 99;
struct TracerB {
  TracerB() { std::puts("tls ctor b"); }
  ~TracerB() { std::puts("tls dtor b"); }
};
thread_local TracerB tB;
int bumpB() {
  (void)&tB;
  return ++plainTls;
}
