// The executor confined by the host (emulator/sandbox.h), seen through the
// linklab CLI on every architecture: system calls code that took over the
// executor would make end it by its seccomp filter, and the CLI says so;
// the filter is on (Seccomp: 2) while a program runs; no executor outlives
// a signalled CLI; a stopped executor is timed out, a killed one reported
// with its signal; a broken output pipe ends the command as SIGPIPE ends a
// native program. Guest code: tests/executor/sandbox.c. Every wait is
// bounded.
#include "test_support.h"

#include <chrono>
#include <csignal>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace linklab;
using namespace linklab::test;

namespace {

struct ArchCase {
  const char *name, *target, *flags;
};
void PrintTo(const ArchCase &C, std::ostream *OS) { *OS << C.name; }
const ArchCase Cases[] = {
    {"x86_64", "x86_64-linux-gnu", ""},
    {"aarch64", "aarch64-linux-gnu", ""},
    {"riscv64", "riscv64-linux-gnu", "-march=rv64gc"},
};

using Clock = std::chrono::steady_clock;

std::string probeExecutor() { return binaryDir() + "/tests/linklab-executor-probe"; }

std::string readFile(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

pid_t parentOf(pid_t P) {
  std::string Stat = readFile("/proc/" + std::to_string(P) + "/stat");
  size_t Close = Stat.rfind(')');
  if (Close == std::string::npos)
    return 0;
  char State;
  int PPid = 0;
  return std::sscanf(Stat.c_str() + Close + 1, " %c %d", &State, &PPid) == 2 ? PPid : 0;
}

// Gone, or a zombie waiting for whoever reaps orphans: nothing runs.
bool ended(pid_t P) {
  std::string Stat = readFile("/proc/" + std::to_string(P) + "/stat");
  size_t Close = Stat.rfind(')');
  return Close == std::string::npos || Stat.compare(Close + 1, 3, " Z ") == 0 || Stat.compare(Close + 1, 3, " X ") == 0;
}

// Every process below Root.
std::vector<pid_t> descendants(pid_t Root) {
  std::vector<pid_t> All, Found;
  if (DIR *D = opendir("/proc")) {
    while (dirent *E = readdir(D))
      if (pid_t P = pid_t(std::atoi(E->d_name)); P > 0)
        All.push_back(P);
    closedir(D);
  }
  std::vector<pid_t> Frontier = {Root};
  while (!Frontier.empty()) {
    pid_t Parent = Frontier.back();
    Frontier.pop_back();
    for (pid_t P : All)
      if (parentOf(P) == Parent)
        Found.push_back(P), Frontier.push_back(P);
  }
  return Found;
}

// linklab with its stdin on a pipe and its stdout and stderr on another.
struct Command {
  pid_t pid = -1;
  int in = -1, out = -1;
  std::string output;

  explicit Command(const std::string &Args) {
    int I[2], O[2];
    if (pipe(I) || pipe(O))
      return;
    posix_spawn_file_actions_t A;
    posix_spawn_file_actions_init(&A);
    posix_spawn_file_actions_adddup2(&A, I[0], 0);
    posix_spawn_file_actions_adddup2(&A, O[1], 1);
    posix_spawn_file_actions_adddup2(&A, O[1], 2);
    for (int Fd : {I[0], I[1], O[0], O[1]})
      posix_spawn_file_actions_addclose(&A, Fd);
    // The signals under test act by default whatever ctest's shell did.
    posix_spawnattr_t At;
    posix_spawnattr_init(&At);
    sigset_t Default;
    sigemptyset(&Default);
    for (int S : {SIGINT, SIGTERM, SIGHUP, SIGPIPE})
      sigaddset(&Default, S);
    posix_spawnattr_setsigdefault(&At, &Default);
    posix_spawnattr_setflags(&At, POSIX_SPAWN_SETSIGDEF);
    std::string Cmd = linklabPath() + " " + Args;
    const char *Argv[] = {"/bin/sh", "-c", nullptr, nullptr};
    Cmd = "exec " + Cmd;
    Argv[2] = Cmd.c_str();
    posix_spawn(&pid, "/bin/sh", &A, &At, const_cast<char **>(Argv), environ);
    posix_spawn_file_actions_destroy(&A);
    posix_spawnattr_destroy(&At);
    close(I[0]), close(O[1]);
    in = I[1], out = O[0];
    fcntl(out, F_SETFL, O_NONBLOCK);
  }
  ~Command() {
    if (pid > 0) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
    close(in), close(out);
  }
  void drain() {
    char Buf[4096];
    ssize_t N;
    while ((N = read(out, Buf, sizeof Buf)) > 0)
      output.append(Buf, size_t(N));
  }
  // The wait status, or -1 if it did not end within Seconds.
  int wait(int Seconds) {
    auto Until = Clock::now() + std::chrono::seconds(Seconds);
    while (Clock::now() < Until) {
      drain();
      int St;
      if (waitpid(pid, &St, WNOHANG) == pid) {
        pid = -1;
        drain();
        return St;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return -1;
  }
  // The executor process serving the session once its filter is on (the
  // deepest descendant: below the one linklab started, when that one waits
  // in the PID namespace's parent), or 0 after Seconds.
  pid_t serving(int Seconds) {
    auto Until = Clock::now() + std::chrono::seconds(Seconds);
    while (Clock::now() < Until) {
      drain();
      for (pid_t P : descendants(pid))
        if (readFile("/proc/" + std::to_string(P) + "/status").find("Seccomp:\t2") != std::string::npos)
          return P;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return 0;
  }
};

class ExecutorSandbox : public ::testing::TestWithParam<ArchCase> {
protected:
  void SetUp() override {
    Obj = compile(D, sourceDir() + "/tests/executor/sandbox.c", GetParam().target,
                  std::string(GetParam().flags) + " -O1 -ffreestanding -fno-stack-protector", "sandbox.o");
  }
  std::string args(const std::string &Entry, const std::string &Extra = "") {
    return "-runtime=none " + Extra + " -entry=" + Entry + " " + Obj;
  }
  TempDir D;
  std::string Obj;
};

TEST_P(ExecutorSandbox, test_allowed_host_call_runs_on) {
  auto R = runCommand(linklabPath() + " -oop-executor=" + probeExecutor() + " " + args("probe_0"));
  EXPECT_EQ(R.status, 0) << R.output;
  EXPECT_GT(std::atol(R.output.c_str()), 0) << R.output; // getpid's answer
}

// Opening a file (two ways), a socket, exec, fork, ptrace, a signal to
// another process, a new user namespace.
TEST_P(ExecutorSandbox, test_forbidden_host_calls_kill_the_executor) {
  for (int Which = 1; Which <= 8; ++Which) {
    auto R =
        runCommand(linklabPath() + " -oop-executor=" + probeExecutor() + " " + args("probe_" + std::to_string(Which)));
    EXPECT_EQ(R.status, 1) << "probe " << Which << ": " << R.output;
    EXPECT_NE(R.output.find("the executor was killed by its sandbox (seccomp): it made a system call its filter "
                            "forbids (SIGSYS)"),
              std::string::npos)
        << "probe " << Which << ": " << R.output;
  }
}

TEST_P(ExecutorSandbox, test_filter_on_while_program_runs) {
  Command C(args("wait_input"));
  pid_t P = C.serving(60);
  ASSERT_GT(P, 0) << C.output;
  std::string Status = readFile("/proc/" + std::to_string(P) + "/status");
  EXPECT_NE(Status.find("NoNewPrivs:\t1"), std::string::npos) << Status;
  // In a new PID namespace (two numbers) as nobody, unless the kernel
  // refused the namespaces, which the executor then says.
  if (C.output.find("running in the host's") == std::string::npos) {
    std::string NsPid = Status.substr(Status.find("NSpid:"));
    NsPid = NsPid.substr(0, NsPid.find('\n'));
    EXPECT_NE(NsPid.find_first_of(" \t", 7), std::string::npos) << NsPid;
    if (geteuid() == 0)
      EXPECT_NE(Status.find("Uid:\t65534"), std::string::npos) << Status;
  }
  // Descriptors: the protocol's two, stderr, the files channel (map-file),
  // the guest memory's memfd, /proc/self/statm (for the run's limits).
  int Fds = 0;
  if (DIR *Dir = opendir(("/proc/" + std::to_string(P) + "/fd").c_str())) {
    while (dirent *E = readdir(Dir))
      Fds += E->d_name[0] != '.';
    closedir(Dir);
  }
  EXPECT_LE(Fds, 6);
  ASSERT_EQ(write(C.in, "x", 1), 1);
  int St = C.wait(60);
  ASSERT_TRUE(St != -1 && WIFEXITED(St)) << C.output;
  EXPECT_EQ(WEXITSTATUS(St), 0) << C.output;
  EXPECT_EQ(C.output, "done\n");
}

// The CLI ended by a signal, its own or SIGKILL, leaves no executor running.
TEST_P(ExecutorSandbox, test_signalled_cli_leaves_no_executor) {
  for (int Sig : {SIGINT, SIGTERM, SIGHUP, SIGKILL}) {
    Command C(args("wait_input"));
    ASSERT_GT(C.serving(60), 0) << C.output;
    std::vector<pid_t> Executors = descendants(C.pid);
    ASSERT_FALSE(Executors.empty());
    kill(C.pid, Sig);
    int St = C.wait(30);
    ASSERT_NE(St, -1) << strsignal(Sig);
    EXPECT_TRUE(WIFSIGNALED(St) && WTERMSIG(St) == Sig) << strsignal(Sig) << " status " << St;
    for (pid_t P : Executors) {
      auto Until = Clock::now() + std::chrono::seconds(20);
      while (!ended(P) && Clock::now() < Until)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      EXPECT_TRUE(ended(P)) << "executor " << P << " still runs after linklab's " << strsignal(Sig);
    }
  }
}

// A stopped executor is killed after twice the run's wall time and 5 s.
TEST_P(ExecutorSandbox, test_stopped_executor_times_out) {
  Command C(args("spin", "-timeout-ms=1000"));
  pid_t P = C.serving(60);
  ASSERT_GT(P, 0) << C.output;
  kill(P, SIGSTOP);
  int St = C.wait(60);
  ASSERT_NE(St, -1) << C.output;
  EXPECT_TRUE(WIFEXITED(St) && WEXITSTATUS(St) == 1) << C.output;
  EXPECT_NE(C.output.find("the executor sent nothing for 7000 ms (stopped or hung): killed"), std::string::npos)
      << C.output;
  auto Until = Clock::now() + std::chrono::seconds(20);
  while (!ended(P) && Clock::now() < Until)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(ended(P));
}

TEST_P(ExecutorSandbox, test_killed_executor_reported_with_its_signal) {
  Command C(args("spin", "-timeout-ms=30000"));
  pid_t P = C.serving(60);
  ASSERT_GT(P, 0) << C.output;
  kill(P, SIGKILL);
  int St = C.wait(60);
  ASSERT_NE(St, -1) << C.output;
  EXPECT_TRUE(WIFEXITED(St) && WEXITSTATUS(St) == 1) << C.output;
  EXPECT_NE(C.output.find("the executor was killed by signal 9 (SIGKILL: Killed)"), std::string::npos) << C.output;
}

// `| head`: the reader goes, and the command ends by SIGPIPE (status 141 in
// the shell) with the program, instead of running on to its 30 s limit.
TEST_P(ExecutorSandbox, test_broken_output_pipe_ends_the_run) {
  auto R = runCommand("bash -c 'timeout -s KILL 60 " + linklabPath() + " -timeout-ms=30000 " + args("flood") +
                      " | head -c 4 >/dev/null; echo status ${PIPESTATUS[0]}'");
  EXPECT_EQ(R.output, "status 141\n");
}

// Guest code runs unprivileged, as a Linux process: privileged instructions
// end it as Linux (and qemu-user) end a process that runs them, by SIGSEGV
// (x86's general-protection fault) or SIGILL; what user mode may do runs.
// On x86-64 the report names the instruction (each priv_N's first), but
// for the overflow trap (priv_10), which Linux reports after it.
TEST_P(ExecutorSandbox, test_privileged_instructions_fault_as_on_linux) {
  bool X86 = std::string(GetParam().name) == "x86_64";
  for (int N = 0; N < (X86 ? 11 : 6); ++N) {
    std::string Entry = "priv_" + std::to_string(N);
    auto R = runCommand(linklabPath() + " " + args(Entry));
    EXPECT_EQ(R.status, X86 ? 128 + SIGSEGV : 128 + SIGILL) << Entry << ": " << R.output;
    EXPECT_NE(R.output.find(X86 ? "killed by SIGSEGV at pc" : "illegal instruction at pc"), std::string::npos)
        << Entry << ": " << R.output;
    if (X86)
      EXPECT_NE(R.output.find("(" + Entry + (N == 10 ? "+0x2 " : "+0x0 ")), std::string::npos) << R.output;
  }
  auto R = runCommand(linklabPath() + " " + args("unprivileged"));
  EXPECT_EQ(R.status, 0) << R.output;
  EXPECT_EQ(R.output, "1\n");
}

TEST_P(ExecutorSandbox, test_thread_host_memory_counts_against_the_cap) {
  auto R = runCommand(linklabPath() + " " + args("thread_cost"));
  EXPECT_EQ(R.status, 0) << R.output;
  EXPECT_EQ(R.output, "1\n");
}

// As the kernel's copy_to_user: a system call's result into the program's
// code or its ELF header is EFAULT, and the bytes there stay as they were.
TEST_P(ExecutorSandbox, test_syscall_stores_into_read_only_memory_are_efault) {
  for (const char *Entry : {"efault_uname_code", "efault_clock_header"}) {
    auto R = runCommand(linklabPath() + " " + args(Entry));
    EXPECT_EQ(R.status, 0) << Entry << ": " << R.output;
    EXPECT_EQ(R.output, "-14\n") << Entry;
  }
  for (const char *Entry : {"uname_stack", "clock_stack"}) {
    auto R = runCommand(linklabPath() + " " + args(Entry));
    EXPECT_EQ(R.status, 0) << Entry << ": " << R.output;
    EXPECT_EQ(R.output, "0\n") << Entry;
  }
}

// A reader that stops reading holds the program no longer than its wall-time
// limit, and the executor gives up on it the wall time and 5 s after the
// run ended: it ends while linklab still waits on its own stdout.
TEST_P(ExecutorSandbox, test_blocked_output_ends_with_the_run_limits) {
  int Stalled[2];
  ASSERT_EQ(pipe(Stalled), 0);
  fcntl(Stalled[0], F_SETFD, FD_CLOEXEC); // only this test holds the read end
  Command C(args("flood", "-timeout-ms=1000") + " >&" + std::to_string(Stalled[1]));
  close(Stalled[1]);
  pid_t P = C.serving(60);
  ASSERT_GT(P, 0) << C.output;
  auto Until = Clock::now() + std::chrono::seconds(60);
  while (!ended(P) && Clock::now() < Until)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_TRUE(ended(P)) << "the executor still runs with its output blocked";
  EXPECT_EQ(waitpid(C.pid, nullptr, WNOHANG), 0) << "linklab ended: its output was not blocked";
  close(Stalled[0]); // linklab's write fails now: it ends
  EXPECT_NE(C.wait(60), -1);
}

// An output cap (the service's; `linklab-executor stdio output-cap=BYTES`)
// keeps that much of a run's output and says it dropped the rest.
TEST_P(ExecutorSandbox, test_output_cap_truncates_and_says_so) {
  std::string Wrapper =
      D.write("capped.sh", "#!/bin/sh\nexec " + binaryDir() + "/emulator/linklab-executor stdio output-cap=100\n");
  chmod(Wrapper.c_str(), 0755);
  auto R = runCommand(linklabPath() + " -oop-executor=" + Wrapper + " -timeout-ms=1000 " + args("flood") + " 2>" +
                      D.file("err") + " | wc -c");
  EXPECT_EQ(R.output, "100\n");
  std::string Err = readFile(D.file("err"));
  EXPECT_NE(Err.find("linklab: output truncated at 100 bytes (the executor's output cap)"), std::string::npos) << Err;
  EXPECT_NE(Err.find("wall-time limit of 1000 ms reached"), std::string::npos) << Err;
}

INSTANTIATE_TEST_SUITE_P(Arch, ExecutorSandbox, ::testing::ValuesIn(Cases),
                         [](const auto &I) { return std::string(I.param.name); });

} // namespace
