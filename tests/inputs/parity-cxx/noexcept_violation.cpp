// An exception leaving a noexcept function: std::terminate, whose default
// handler names the exception on stderr, then abort() (SIGABRT).
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
void f() noexcept { throw std::runtime_error("from noexcept"); }
int main() {
  std::puts("start");
  std::fflush(stdout);
  f();
}
