// A static destructor throwing after main returned: std::terminate, here
// through a handler from std::set_terminate that calls abort().
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
struct ThrowingDtor {
  ~ThrowingDtor() noexcept(false) {
    std::puts("static dtor throws");
    throw 5;
  }
};
ThrowingDtor t;
struct S {
  const char *n;
  ~S() { std::printf("~%s\n", n); }
};
S s1{"s1"};
[[noreturn]] void h() {
  std::puts("terminate handler");
  std::fflush(stdout);
  std::abort();
}
int main() {
  std::set_terminate(h);
  std::puts("main returns");
  return 0;
}
