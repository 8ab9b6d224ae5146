// std::exit from main (argc > 2): atexit handlers and static destructors
// in reverse order of registration, function-local statics included;
// locals are not destroyed and at_quick_exit handlers do not run.
#include <cstdio>
#include <cstdlib>
#include <string>
struct S {
  std::string n;
  S(const char *x) : n(x) { std::printf("+%s\n", x); }
  ~S() { std::printf("~%s\n", n.c_str()); }
};
S g1("g1");
void ax1() { std::puts("atexit 1"); }
void ax2() { std::puts("atexit 2"); }
void qx() { std::puts("quick_exit handler"); }
S &lazy() {
  static S l("lazy");
  return l;
}
S g2("g2");
int main(int argc, char **argv) {
  std::atexit(ax1);
  lazy();
  static S m("main-static");
  std::atexit(ax2);
  S local("local");
  std::at_quick_exit(qx);
  if (argc > 2)
    std::exit(4);
  return 1;
}
