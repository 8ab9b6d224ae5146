// The start state and system calls of an emulated Linux process, read back
// by a freestanding program (tests/inputs/run/start_state.c: raw system
// calls, no C library) through the `linklab` CLI on each architecture:
// argv/envp/auxv as exec leaves them (-env adds to an empty environment),
// the program headers AT_PHDR names, Linux's initial floating-point control
// state, what each supported call answers (a host file: -ENOENT), the -EPERM refusals and -ENOSYS
// notes (once per call), and a signal sent to itself reported as a kill.
#include "test_support.h"

#include <gtest/gtest.h>

using namespace linklab;

namespace {

struct ArchCase {
  const char *name, *cflags;
  const char *hwcap, *platform;
  std::string fpLines; // the arch's floating-point control registers
  // Numbers of socket, execve, clone, kill, io_setup.
  std::vector<int> noted;
};
void PrintTo(const ArchCase &C, std::ostream *OS) { *OS << C.name; }
const ArchCase Arches[] = {
    {"x86_64",
     "--target=x86_64-linux-gnu",
     "0x7088100",
     "x86_64",
     "x87 control word=0x37f\nMXCSR=0x1f80\nAT_HWCAP is CPUID.1:EDX=1\n",
     {41, 59, 56, 62, 206}},
    {"aarch64",
     "--target=aarch64-linux-gnu",
     "0x8fb",
     "aarch64",
     "FPCR=0x0\nFPSR=0x0\nAT_HWCAP matches ID_AA64ISAR0_EL1=1\n",
     {198, 221, 220, 129, 0}},
    {"riscv64",
     "--target=riscv64-linux-gnu -march=rv64gc -mabi=lp64d",
     "0x112d",
     "(none)",
     "fcsr=0x0\n",
     {198, 221, 220, 129, 0}},
    // Big-endian data: the stack words, auxv, program headers and the
    // system calls' structures are read back in the guest's byte order.
    {"aarch64_be",
     "--target=aarch64_be-linux-gnu",
     "0x8fb",
     "aarch64_be",
     "FPCR=0x0\nFPSR=0x0\nAT_HWCAP matches ID_AA64ISAR0_EL1=1\n",
     {198, 221, 220, 129, 0}},
};

std::string expectedStdout(const ArchCase &A, const std::string &Argv1) {
  return "argc=2\nargv: prog\nargv: " + Argv1 +
         "\nenv: FOO=bar\nenv: EMPTY=\nAT_PAGESZ=4096\nAT_PHENT=56\nAT_SECURE=0\nAT_UID=1000\nAT_EUID=1000\n"
         "AT_GID=1000\nAT_EGID=1000\nAT_CLKTCK=100\nAT_HWCAP=" +
         A.hwcap + "\nAT_HWCAP2=0x0\nAT_ENTRY is main=1\nAT_PLATFORM=" + A.platform +
         "\nAT_EXECFN is argv[0]=1\nAT_RANDOM readable, not all zero=1\nPT_PHDR names itself=1\n"
         "PT_LOAD holds the headers=1\nPT_GNU_STACK read-write=1\nPT_TLS describes the image=1\n"
         "ELF header before them=1\n" +
         A.fpLines + "FP works (1/3 * 3 == 1)=1\nTLS value=42\nuname=0\nsysname=Linux machine=" + A.name +
         "\ngetpid=1000\ngetcwd=2\ncwd=/\n/proc/self/exe is /argv[0]=1\nclock_gettime=0\nrealtime after 2020=1\n"
         "prlimit64 STACK=0\nstack limit=8388608\ngetrandom=8\ngetrandom differs between calls=1\nfstat(1)=0\n"
         "newfstatat(1, \"\", AT_EMPTY_PATH)=0\nstdout st_mode=0x1180\nioctl(1, TCGETS)=-25\nlseek(1)=-29\n"
         "sched_getaffinity=8\ncpu mask=1\nbrk grows=1\nmmap page-aligned=1\nmremap keeps the bytes=1\nmunmap=0\n"
         "openat /etc/passwd=-2\nsocket=-1\nexecve=-1\nclone=-1\nkill(another pid)=-1\nunsupported=-38\n"
         "unsupported again=-38\nkill(self, 0)=0\n";
}

std::string expectedNotes(const ArchCase &A) {
  const char *Names[] = {"socket", "execve", "clone", "kill", "io_setup"};
  std::string S;
  for (int I = 0; I < 5; ++I)
    S += formatv("linklab: system call %d (%s) %s\n", A.noted[I], Names[I],
                 I < 4 ? "refused (the emulated process reaches no host file, process or network)" : "not supported");
  return S;
}

class StartState : public ::testing::TestWithParam<ArchCase> {
protected:
  // Runs the program with argv[1] = Argv1; stdout and stderr apart.
  std::pair<int, std::pair<std::string, std::string>> run(const std::string &Argv1) {
    auto &A = GetParam();
    std::string Obj = Dir.file("start_state.o");
    std::string Cc = std::string("clang-22 -c -O0 -ffreestanding ") + A.cflags + " " + test::sourceDir() +
                     "/tests/inputs/run/start_state.c -o " + Obj;
    EXPECT_EQ(std::system(Cc.c_str()), 0) << Cc;
    std::string Cmd = test::linklabPath() + " -runtime=none -env FOO=bar -env EMPTY= " + Obj + " -args prog " + Argv1 +
                      " >" + Dir.file("out") + " 2>" + Dir.file("err");
    int St = std::system(Cmd.c_str());
    auto Slurp = [](const std::string &P) {
      std::stringstream S;
      S << std::ifstream(P).rdbuf();
      return S.str();
    };
    return {WIFEXITED(St) ? WEXITSTATUS(St) : -1, {Slurp(Dir.file("out")), Slurp(Dir.file("err"))}};
  }
  test::TempDir Dir;
};

TEST_P(StartState, test_start_state_and_system_calls_read_back) {
  auto [Code, Out] = run("exit");
  EXPECT_EQ(Code, 7); // exit_group(7)
  EXPECT_EQ(Out.first, expectedStdout(GetParam(), "exit"));
  EXPECT_EQ(Out.second, expectedNotes(GetParam()));
}

TEST_P(StartState, test_signal_to_itself_is_reported_as_a_kill) {
  auto [Code, Out] = run("abort");
  EXPECT_EQ(Code, 128 + 6);
  EXPECT_EQ(Out.first, expectedStdout(GetParam(), "abort"));
  std::string Notes = expectedNotes(GetParam());
  ASSERT_EQ(Out.second.substr(0, Notes.size()), Notes);
  std::string Report = Out.second.substr(Notes.size());
  EXPECT_TRUE(Report.starts_with("linklab error: program killed by SIGABRT at pc 0x")) << Report;
  EXPECT_NE(Report.find("in .text of "), std::string::npos) << Report; // symbolized
  EXPECT_EQ(std::count(Report.begin(), Report.end(), '\n'), 1) << Report;
}

TEST(StartStateCli, test_env_without_equals_is_refused) {
  auto R = test::runCommand(test::linklabPath() + " -env NOVALUE /dev/null");
  EXPECT_EQ(R.status, 1);
  EXPECT_NE(R.output.find("option '-env': 'NOVALUE' is not NAME=VALUE"), std::string::npos) << R.output;
}

INSTANTIATE_TEST_SUITE_P(Arch, StartState, ::testing::ValuesIn(Arches),
                         [](const auto &I) { return std::string(I.param.name); });

} // namespace
