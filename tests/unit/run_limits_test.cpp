// Limits and faults through the `linklab` CLI, per architecture: each ends
// the run with exit code 1 and an error naming the limit, or the fault with
// its PC and address and the nearest symbol (object, section, symbol+offset)
// and the status of a process the fault's signal killed, as a shell reports
// it natively: 128 + SIGSEGV (139), SIGILL (132), AArch64's brk SIGTRAP (133).
#include "test_support.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <sys/wait.h>

using namespace linklab;

namespace {

const std::string Out = LINKLAB_BINARY_DIR "/tests/run/";

using test::ArchCase;
const ArchCase Arches[] = {
    {"x86_64", Arch::X86_64},
    {"aarch64", Arch::AArch64},
    {"riscv64", Arch::RISCV64},
    {"i386", Arch::I386},
};

struct Case {
  const char *name, *argv1, *options;
  int status;                      // the CLI's exit status (AArch64: Status64 where it differs)
  std::vector<std::string> expect; // substrings of stderr
  int aarch64Status = 0;
};
void PrintTo(const Case &C, std::ostream *OS) { *OS << C.name; }
const Case Cases[] = {
    {"instructions", "s", "-max-instructions=100000", 1, {"instruction limit", "spin+0x"}},
    {"wall_time", "s", "-timeout-ms=300", 1, {"time limit"}},
    {"memory", "m", "-max-memory=2Mb", 1, {"memory limit", "memory cap of 0x200000 bytes"}},
    {"bad_read",
     "r",
     "-max-instructions=100000000",
     139,
     {"read of unmapped memory", "read_bad+0x", "address 0x123458", "faults-"}},
    // AArch64's trap is `brk`, a breakpoint rather than an undefined opcode: SIGTRAP.
    {"illegal", "i", "", 132, {"at pc 0x", "main+0x", ".text"}, 133},
    {"jump_unmapped", "j", "", 139, {"unmapped", "pc 0x7770000"}},
};

class RunLimits : public ::testing::TestWithParam<std::tuple<Case, ArchCase>> {};

TEST_P(RunLimits, EndsWithClearError) {
  auto &[C, A] = GetParam();
  std::string Obj = Out + "faults-" + A.name + ".o";
  ASSERT_EQ(std::system(("mkdir -p " + Out + " && clang-22 -c -O1 " + test::runtimeCFlags(A.arch) + " " +
                         LINKLAB_SOURCE_DIR "/tests/inputs/run/faults.c -o " + Obj)
                            .c_str()),
            0);
  std::string Err = Out + "faults-" + C.name + "-" + A.name + ".stderr";
  std::string Cmd =
      std::string(LINKLAB_BINARY_DIR "/core/linklab ") + C.options + " " + Obj + " -args prog " + C.argv1 + " 2>" + Err;
  int Status = std::system(Cmd.c_str());
  ASSERT_TRUE(WIFEXITED(Status)) << Cmd;
  EXPECT_EQ(WEXITSTATUS(Status), A.arch == Arch::AArch64 && C.aarch64Status ? C.aarch64Status : C.status) << Cmd;
  std::stringstream S;
  S << std::ifstream(Err).rdbuf();
  for (auto &E : C.expect)
    EXPECT_NE(S.str().find(E), std::string::npos) << "missing '" << E << "' in: " << S.str();
}

INSTANTIATE_TEST_SUITE_P(All, RunLimits, ::testing::Combine(::testing::ValuesIn(Cases), ::testing::ValuesIn(Arches)),
                         [](const auto &I) {
                           return std::string(std::get<0>(I.param).name) + "_" + std::get<1>(I.param).name;
                         });

} // namespace
