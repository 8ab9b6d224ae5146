// Threads gone wrong through the `linklab` CLI (tests/inputs/run/thread_faults.c),
// per architecture: a deadlock of two threads, a crash, a limit or a
// fatal signal inside a thread end the run with a report naming the
// thread; robust mutexes of a thread that exits report EOWNERDEAD; thousands of threads are created and joined; clone
// with flags other than a thread's is refused. (Threads that behave are compared with glibc builds in GlibcParity and
// CxxParity: threads.c, threads.cpp.)
#include "test_support.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <sys/wait.h>

using namespace linklab;

namespace {

const test::ModeCase Cases[] = {
    {"deadlock",
     "d",
     "",
     1,
     {"deadlock: every thread waits: thread 1000 in futex wait at 0x", ", thread 1001 in futex wait at 0x"}},
    {"crash", "c", "", 139, {"write to unmapped memory at pc 0x", ", null pointer (address 0x0) in thread 1001"}},
    {"instruction_limit", "s", "-max-instructions=3000000", 1, {"instruction budget of 3000000 spent in thread 1001"}},
    {"time_limit", "s", "-timeout-ms=@WALL@", 1, {"wall-time limit of @WALL@ ms reached", " in thread 1001"}},
    {"memory_limit", "m", "-max-memory=48Mb", 1, {"memory limit", "in thread 1001"}},
    {"limit_in_sigwait", "w", "-max-instructions=3000000", 1, {"instruction budget of 3000000 spent in thread 1001"}},
    {"sleep_limit",
     "z",
     "-timeout-ms=@WALL@",
     1,
     {"wall-time limit of @WALL@ ms reached in clock_nanosleep", " in thread 1000"}},
    {"abort", "k", "", 134, {"killed by SIGABRT at pc 0x", " in thread 1001"}},
    {"robust_mutex",
     "r",
     "",
     0,
     {"waiting when the owner exited: Owner died, made consistent: Success\nlocked after the owner exited: Owner died, "
      "made consistent: Success\n"}},
    {"thousands", "t", "", 0, {"3000 threads joined, sum 4501500\n"}},
    {"unsupported_clone",
     "u",
     "",
     0,
     {"fork-like clone: -1 errno 1; namespace: -1 errno 22; no CLONE_VM: -1 errno 22\n"}},
};

class RunThreads : public ::testing::TestWithParam<test::ModeParam> {};

TEST_P(RunThreads, EndsWithClearReport) {
  auto &[C, A] = GetParam();
  test::expectModeRun("thread_faults", C, A);
}

INSTANTIATE_TEST_SUITE_P(All, RunThreads,
                         ::testing::Combine(::testing::ValuesIn(Cases), ::testing::ValuesIn(test::AllArches)),
                         test::modeParamName);

} // namespace
