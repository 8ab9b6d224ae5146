// thread_local variables defined in tls_across_b.cpp used here: one
// without dynamic initialization (its init function a weak undefined
// reference), one with; constructors on first use, destructors at exit.
#include <cstdio>
#include <string>
extern thread_local int plainTls;       // no dynamic init in tls_b.cpp: weak _ZTH reference
extern thread_local std::string dynTls; // dynamic init in tls_b.cpp
extern thread_local int lateTls;        // constant-initialized there
int bumpB();
struct Tracer {
  const char *n;
  Tracer(const char *n) : n(n) { std::printf("tls ctor %s\n", n); }
  ~Tracer() { std::printf("tls dtor %s\n", n); }
};
thread_local Tracer tA("a");
static thread_local int localCount = [] {
  std::puts("init localCount");
  return 7;
}();
int main() {
  std::printf("plain %d\n", plainTls);
  plainTls += 5;
  std::printf("dyn %s\n", dynTls.c_str());
  dynTls += "!";
  int B = bumpB();
  std::printf("bumpB %d plain %d dyn %s late %d\n", B, plainTls, dynTls.c_str(), lateTls);
  std::printf("tracer %s local %d\n", tA.n, ++localCount);
  static thread_local Tracer tl("function-local");
  return 0;
}
