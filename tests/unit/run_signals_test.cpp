// Signal misuse through the `linklab` CLI (tests/inputs/run/signal_faults.c),
// per architecture: a bad frame at rt_sigreturn, a handler that is not
// code, runaway nesting, a storm, a corrupted saved context, a wait no
// signal can end and a sleep past the time limit each end the run with a
// report naming what happened and where. (Delivery itself is compared with
// glibc builds in GlibcParity: signals.c, abort_handler.c.)
#include "test_support.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace linklab;

namespace {

const std::string Out = LINKLAB_BINARY_DIR "/tests/run/";

const test::ModeCase Cases[] = {
    {"sigreturn_without_frame", "r", "", 139, {"killed by SIGSEGV", "rt_sigreturn at pc 0x", "no signal frame at 0x"}},
    {"handler_not_code", "h", "", 139, {"jump to unmapped memory at pc 0x7770000"}},
    {"nested_forever", "n", "", 1, {"SIGUSR1 at pc 0x", "signal handlers nested 1024 deep"}},
    {"storm", "s", "-timeout-ms=@WALL@", 1, {"time limit", "wall-time limit of @WALL@ ms"}},
    {"corrupted_context", "c", "", 139, {"unmapped memory at pc 0x4141414"}},
    {"pause", "p", "", 1, {"deadlock: ", " waits for a signal nothing can send (the process has one thread)"}},
    {"sleep_past_limit", "z", "-timeout-ms=@WALL@", 1, {"wall-time limit of @WALL@ ms reached in clock_nanosleep"}},
    {"sa_mask", "m", "", 0, {"SIGUSR2 masked in the handler: 1\n"}},
};

class RunSignals : public ::testing::TestWithParam<test::ModeParam> {};

TEST_P(RunSignals, EndsWithClearReport) {
  auto &[C, A] = GetParam();
  test::expectModeRun("signal_faults", C, A);
}

INSTANTIATE_TEST_SUITE_P(All, RunSignals,
                         ::testing::Combine(::testing::ValuesIn(Cases), ::testing::ValuesIn(test::AllArches)),
                         test::modeParamName);

} // namespace

namespace {
// A program waiting for stdin the client does not send ends at the
// wall-time limit, named as a wait for stdin.
TEST(RunStdin, WaitEndsAtTimeLimit) {
  std::string Obj = Out + "stdin-wait.o", Err = Out + "stdin-wait.stderr";
  ASSERT_EQ(std::system(("mkdir -p " + Out +
                         " && printf '#include <stdio.h>\\nint main(void){return getchar();}\\n' | "
                         "clang-22 -c -O1 " +
                         test::runtimeCFlags(Arch::X86_64) + " -x c - -o " + Obj)
                            .c_str()),
            0);
  // Stdin is a pipe whose write end this test holds open and never writes:
  // the input never comes, however long the link takes.
  int Pipe[2];
  ASSERT_EQ(pipe(Pipe), 0);
  std::string Linklab = LINKLAB_BINARY_DIR "/core/linklab ";
  long Wall = test::wallLimitMs(Linklab + Obj);
  std::string Cmd =
      Linklab + "-timeout-ms=" + std::to_string(Wall) + " " + Obj + " <&" + std::to_string(Pipe[0]) + " 2>" + Err;
  int Status = std::system(Cmd.c_str());
  close(Pipe[0]), close(Pipe[1]);
  ASSERT_TRUE(WIFEXITED(Status)) << Cmd;
  EXPECT_EQ(WEXITSTATUS(Status), 1) << Cmd;
  std::stringstream S;
  S << std::ifstream(Err).rdbuf();
  EXPECT_NE(S.str().find("wall-time limit of " + std::to_string(Wall) + " ms reached waiting for stdin"),
            std::string::npos)
      << S.str();
}
} // namespace
