// i386 and 32-bit Arm (Arm and Thumb code) programs run in linklab-executor
// through the `linklab` CLI, freestanding (-runtime=none -entry=NAME): calls
// between the program's own functions (Arm <-> Thumb interworking across
// objects), the exit status from the entry's return value as llvm-jitlink
// gives it, and the arch's Linux system calls (i386 `int $0x80`, Arm EABI
// `svc 0`) with their notes and faults. The reference for a program's value
// is the same sources built the ordinary way for the arch (gcc -m32 -static, natively or under qemu-i386,
// arm-linux-gnueabihf-gcc-12 -static under qemu-arm) with a main calling the
// entry. One program with glibc writes code at run time and calls it.
#include "test_support.h"

#include <gtest/gtest.h>

#include <csignal>

using namespace linklab;
using namespace linklab::test;

namespace {

struct Arch32 {
  const char *name;
  const char *clangFlags; // target and code flags for linklab's objects
  const char *otherFlags; // util.c's: the other instruction set, where there is one
  const char *reference;  // builds SRCS into EXE
  const char *runner;     // runs EXE
  int unsupportedNr;      // io_setup's number
  const char *privFlags;  // privileged.c's reference build: the same CPU and instruction set as clangFlags
  int privileged;         // privileged.c's priv_N entries
  int privSignal;         // the signal Linux ends each with
};
void PrintTo(const Arch32 &A, std::ostream *OS) { *OS << A.name; }
// Armv7-A with the Cortex-A15's integer divide (Unicorn's Arm CPU), so that
// freestanding code needs no libgcc division helpers.
#define ARM "--target=armv7a-linux-gnueabihf -mcpu=cortex-a15"
const Arch32 Arches[] = {
    {"i386", "--target=i386-linux-gnu", "--target=i386-linux-gnu", "gcc -m32 -static -O1 SRCS -o EXE",
     "bash -c 'I386_EXEC EXE'", 245, "", 12, SIGSEGV},
    {"arm", ARM " -marm", ARM " -mthumb", "arm-linux-gnueabihf-gcc-12 -static -O1 SRCS -o EXE", "qemu-arm EXE", 243,
     "-mcpu=cortex-a15 -marm", 8, SIGILL},
    {"thumb", ARM " -mthumb", ARM " -marm", "arm-linux-gnueabihf-gcc-12 -static -O1 SRCS -o EXE", "qemu-arm EXE", 243,
     "-mcpu=cortex-a15 -mthumb", 8, SIGILL},
};
#undef ARM

std::string replace(std::string S, const std::string &From, const std::string &To) {
  for (size_t At; (At = S.find(From)) != std::string::npos;)
    S.replace(At, From.size(), To);
  return S;
}

class Run32 : public ::testing::TestWithParam<Arch32> {};

// The MachO/COFF tests' multi-file program: function pointers, data
// relocations, calls across objects (Arm calling Thumb and back on Arm).
TEST_P(Run32, FreestandingProgramReturnsItsValue) {
  const Arch32 &A = GetParam();
  TempDir D;
  std::string Driver = D.write("driver.c", "int run(void);\nint main(void) { return run(); }\n");
  std::string Srcs = Driver;
  for (const char *File : {"shapes", "util", "main"})
    Srcs += " " + freestandingSource(File);
  std::string Exe = D.file("ref");
  auto Built = runCommand(replace(replace(A.reference, "SRCS", Srcs), "EXE", Exe));
  ASSERT_EQ(Built.status, 0) << Built.output;
  auto Ref = runCommand(replace(replace(A.runner, "I386_EXEC", i386Exec()), "EXE", Exe));
  EXPECT_NE(Ref.status, 0) << Ref.output;
  for (const char *Opt : {"-O0", "-O2"}) {
    std::string Objs;
    for (const char *File : {"shapes", "util", "main"}) {
      std::string Flags = std::string(File) == "util" ? A.otherFlags : A.clangFlags;
      std::string Obj = D.file(std::string(File) + Opt + ".o");
      auto C =
          runCommand("clang-22 " + Flags + " " + Opt + " -ffreestanding -c " + freestandingSource(File) + " -o " + Obj);
      ASSERT_EQ(C.status, 0) << C.output;
      Objs += " " + Obj;
    }
    auto R = runCommand(linklabPath() + " -runtime=none -entry=run" + Objs);
    EXPECT_EQ(R.status, Ref.status) << Opt << "\n" << R.output;
  }
}

TEST_P(Run32, SystemCallsNotesAndFaults) {
  const Arch32 &A = GetParam();
  TempDir D;
  std::string Obj = D.file("raw.o");
  auto C = runCommand("clang-22 " + std::string(A.clangFlags) + " -O1 -ffreestanding -c " + sourceDir() +
                      "/tests/inputs/run/raw_syscalls.c -o " + Obj);
  ASSERT_EQ(C.status, 0) << C.output;
  auto Run = [&](const char *Entry) {
    return runCommand(linklabPath() + " -runtime=none -entry=" + Entry + " " + Obj);
  };

  auto Hello = Run("hello");
  EXPECT_EQ(Hello.status, 7) << Hello.output;
  EXPECT_EQ(Hello.output, "hello from a freestanding program\nto stderr\n");

  auto Leave = Run("leave");
  EXPECT_EQ(Leave.status, 42) << Leave.output;

  auto Unsupported = Run("unsupported");
  EXPECT_EQ(Unsupported.status, 38) << Unsupported.output; // ENOSYS
  EXPECT_EQ(Unsupported.output,
            "linklab: system call " + std::to_string(A.unsupportedNr) + " (io_setup) not supported\n");

  auto Refused = Run("refused");
  EXPECT_EQ(Refused.status, 1) << Refused.output; // EPERM
  EXPECT_EQ(Refused.output, "linklab: system call 11 (execve) refused (the emulated process reaches no host file, "
                            "process or network)\n");

  auto HostFile = Run("host_file");
  EXPECT_EQ(HostFile.status, 2) << HostFile.output; // ENOENT
  EXPECT_EQ(HostFile.output, "");

  auto Fault = Run("fault");
  EXPECT_EQ(Fault.status, 139) << Fault.output; // killed by SIGSEGV, as natively
  for (const char *Expect : {"read of unmapped memory", "read_bad+0x", "address 0x123458", "raw.o"})
    EXPECT_NE(Fault.output.find(Expect), std::string::npos) << "missing '" << Expect << "' in: " << Fault.output;
}

// Guest code runs unprivileged, as a Linux process (tests/inputs/run/
// privileged.c): each privileged instruction, and on i386 each `int $N`
// through a gate user mode may not use, ends the program by the signal
// Linux sends, as the same code built with gcc runs under qemu-user (or
// natively); what user mode may do runs on.
TEST_P(Run32, PrivilegedInstructionsFaultAsOnLinux) {
  const Arch32 &A = GetParam();
  TempDir D;
  std::string Src = sourceDir() + "/tests/inputs/run/privileged.c", Obj = D.file("privileged.o");
  auto C = runCommand("clang-22 " + std::string(A.clangFlags) + " -O1 -ffreestanding -c " + Src + " -o " + Obj);
  ASSERT_EQ(C.status, 0) << C.output;
  // The reference: a main that runs the entry its argument names (a letter each).
  std::string Main = "#include <stdlib.h>\nint unprivileged(void);\n";
  std::string Cases;
  for (int N = 0; N < A.privileged; ++N) {
    Main += "int priv_" + std::to_string(N) + "(void);\n";
    Cases += "case '" + std::string(1, char('a' + N)) + "': return priv_" + std::to_string(N) + "();\n";
  }
  Main += "int main(int argc, char **argv) {\nswitch (argv[1][0]) {\n" + Cases + "}\nreturn unprivileged();\n}\n";
  std::string Exe = D.file("ref");
  auto Built = runCommand(replace(
      replace(A.reference, "SRCS", std::string(A.privFlags) + " " + D.write("main.c", Main) + " " + Src), "EXE", Exe));
  ASSERT_EQ(Built.status, 0) << Built.output;
  auto Reference = [&](char Which) {
    // `; exit $?`: the shell reports a killed process as 128 + its signal.
    return runCommand(replace(replace(A.runner, "I386_EXEC", i386Exec()), "EXE", Exe + " " + Which) + "; exit $?")
        .status;
  };
  for (int N = 0; N < A.privileged; ++N) {
    std::string Entry = "priv_" + std::to_string(N);
    auto R = runCommand(linklabPath() + " -runtime=none -entry=" + Entry + " " + Obj);
    EXPECT_EQ(R.status, 128 + A.privSignal) << Entry << ": " << R.output;
    EXPECT_EQ(R.status, Reference(char('a' + N))) << Entry << ": " << R.output;
    EXPECT_NE(R.output.find(A.privSignal == SIGSEGV ? "killed by SIGSEGV at pc" : "illegal instruction at pc"),
              std::string::npos)
        << Entry << ": " << R.output;
  }
  auto R = runCommand(linklabPath() + " -runtime=none -entry=unprivileged " + Obj);
  EXPECT_EQ(R.status, 1) << R.output;
  EXPECT_EQ(Reference('z'), 1);
}

// Code written at run time into an executable mapping and called, then
// rewritten and called again (tests/inputs/run/code_at_run_time.c), with
// glibc: each call runs what was last written, as under qemu-user, on the
// executor's direct memory and chained blocks and with them off.
TEST_P(Run32, CodeWrittenAtRunTime) {
  const Arch32 &A = GetParam();
  TempDir D;
  std::string Src = sourceDir() + "/tests/inputs/run/code_at_run_time.c", Exe = D.file("ref"), Obj = D.file("prog.o");
  auto Built = runCommand(replace(replace(A.reference, "SRCS", Src), "EXE", Exe));
  ASSERT_EQ(Built.status, 0) << Built.output;
  auto Ref = runCommand(replace(replace(A.runner, "I386_EXEC", i386Exec()), "EXE", Exe));
  ASSERT_EQ(Ref.status, 0) << Ref.output;
  ASSERT_EQ(Ref.output, "123456789\n");
  std::string Headers = std::string(A.name) == "i386" ? " -idirafter /usr/include/x86_64-linux-gnu" : "";
  auto C = runCommand("clang-22 " + std::string(A.clangFlags) + Headers + " -O2 -c " + Src + " -o " + Obj);
  ASSERT_EQ(C.status, 0) << C.output;
  for (const char *Env : {"", "LINKLAB_EXECUTOR_SOFTMMU=1 LINKLAB_EXECUTOR_NO_CHAINING=1 "}) {
    auto R = runCommand(Env + linklabPath() + " " + Obj);
    EXPECT_EQ(R.status, 0) << Env << R.output;
    EXPECT_EQ(R.output, Ref.output) << Env;
  }
}

INSTANTIATE_TEST_SUITE_P(All, Run32, ::testing::ValuesIn(Arches),
                         [](const auto &I) { return std::string(I.param.name); });

} // namespace
