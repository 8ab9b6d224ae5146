// Objects compiled for other ELF operating systems (FreeBSD, Solaris, ...)
// link and run as Linux objects do: a JIT link of relocatable code needs
// nothing from the OS, and the executor's C runtime starts main. Each run
// must end as the same program built for Linux ends in the executor, and
// that as the native build ends.
#include "test_support.h"

using namespace linklab::test;

namespace {

const char *const Program = "static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\n"
                            "int table[4] = {3, 1, 4, 1};\n"
                            "int main(void) { return fib(10) + table[2] + (int)sizeof(long); }\n";

TEST(OtherOS, ObjectsRunAsLinuxOnesDo) {
  TempDir D;
  std::string Src = D.write("p.c", Program);
  const std::pair<const char *, const char *> Cases[] = {{"x86_64-linux-gnu", "x86_64-unknown-freebsd"},
                                                         {"x86_64-linux-gnu", "x86_64-pc-solaris"},
                                                         {"aarch64-linux-gnu", "aarch64-unknown-freebsd"},
                                                         {"riscv64-linux-gnu", "riscv64-unknown-freebsd"}};
  // The native build's status: every Linux object must end the same way.
  auto Native = runCommand("clang-22 -O1 -o '" + D.file("native") + "' '" + Src + "' && '" + D.file("native") + "'");
  ASSERT_NE(Native.status, 0) << Native.output;
  for (auto &[Linux, Other] : Cases) {
    std::string Flags = std::string("-O1 ") + (std::string(Linux).starts_with("riscv") ? "-march=rv64gc" : "");
    std::string L = compile(D, Src, Linux, Flags, std::string(Linux) + ".o");
    std::string O = compile(D, Src, Other, Flags, std::string(Other) + ".o");
    auto Ref = runCommand(linklabPath() + " " + L);
    auto R = runCommand(linklabPath() + " " + O);
    EXPECT_EQ(Ref.status, Native.status) << Linux << "\n" << Ref.output;
    EXPECT_EQ(R.status, Ref.status) << Other << "\n" << R.output;
    auto T = runCommand(linklabPath() + " -triple=" + Other + " " + O);
    EXPECT_EQ(T.status, Ref.status) << "-triple=" << Other << "\n" << T.output;
  }
}

} // namespace
