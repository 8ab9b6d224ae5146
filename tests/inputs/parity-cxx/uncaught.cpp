// An exception nothing catches: libstdc++'s verbose terminate handler names
// it on stderr, then abort() (SIGABRT). Destructors of locals do not run.
#include <cstdio>
#include <stdexcept>

struct Local {
  ~Local() { std::puts("not printed"); }
};

static void fail(int Depth) {
  Local L;
  if (Depth == 0)
    throw std::length_error("too long by far");
  fail(Depth - 1);
}

int main() {
  std::puts("about to throw");
  std::fflush(stdout);
  fail(2);
}
