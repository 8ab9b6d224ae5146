#include "sandbox.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace linklab::emu::sandbox {

int64_t (*ProbeHook)(uint64_t Which) = nullptr;

namespace {

void warn(const char *What) { std::fprintf(stderr, "linklab-executor: warning: %s: %s\n", What, std::strerror(errno)); }

void setLimit(int Resource, rlim_t Soft, rlim_t Hard) {
  rlimit L = {Soft, Hard};
  if (setrlimit(Resource, &L))
    warn("setrlimit");
}

// Every descriptor but the protocol's (0 and 1, or a session's socket),
// the ones the session was given (gdb's, the files channel) and stderr,
// where the executor's own warnings go: whatever its parent left open (a
// terminal, a listening socket, a file) is not the guest's way out.
void closeInherited(int KeepA, int KeepB) {
  unsigned From = 3;
  int Keep[] = {std::min(KeepA, KeepB), std::max(KeepA, KeepB)};
  for (int K : Keep) {
    if (K < int(From))
      continue;
    if (unsigned(K) > From)
      close_range(From, unsigned(K) - 1, 0);
    From = unsigned(K) + 1;
  }
  close_range(From, ~0U, 0);
}

// The child serves in the new PID namespace (as its init); this process
// keeps nothing of the session (stderr only) and ends as its child ended,
// by the same exit code or the same signal, which is what the client
// waits for.
[[noreturn]] void waitForChild(pid_t Child) {
  close_range(0, 1, 0);
  close_range(3, ~0U, 0); // a gdb socket too: the child's alone
  int Status = 0;
  while (waitpid(Child, &Status, 0) < 0)
    if (errno != EINTR)
      _exit(1);
  if (WIFSIGNALED(Status)) {
    int Sig = WTERMSIG(Status);
    std::signal(Sig, SIG_DFL);
    sigset_t Set;
    sigemptyset(&Set);
    sigaddset(&Set, Sig);
    sigprocmask(SIG_UNBLOCK, &Set, nullptr);
    kill(getpid(), Sig);
  }
  _exit(WIFEXITED(Status) ? WEXITSTATUS(Status) : 1);
}

// Root gives up its identity first (nobody holds no file and can signal
// no other user's process), then the process takes new namespaces: no
// network but an unconfigured loopback, a private mount table, no
// capability over anything of the host's.
void enterNamespaces(bool Pid) {
  constexpr uid_t Nobody = 65534;
  if (geteuid() == 0 &&
      (setgroups(0, nullptr) || setresgid(Nobody, Nobody, Nobody) || setresuid(Nobody, Nobody, Nobody)))
    warn("cannot drop root privileges");
  if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS)) {
    warn("no new user, mount and network namespaces (the kernel refuses them); running in the host's");
    return;
  }
  if (!Pid)
    return;
  if (unshare(CLONE_NEWPID)) {
    warn("no new PID namespace; running in the host's");
    return;
  }
  // The identity change cleared the parent-death signal the process was
  // started with, and this process lives on only to wait for the child
  // (which sets its own): it must end with whoever started it too.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  pid_t Child = fork();
  if (Child < 0) { // threads cannot start once the namespace for children differs
    warn("fork into the new PID namespace");
    _exit(1);
  }
  if (Child > 0)
    waitForChild(Child);
}

// Kept open across lockDown (which forbids opening it again), for limitRun.
int StatmFd = -1;

} // namespace

// Set by confineAtStart: only a process confined at its start (the
// executor's main) is locked down and limited; one that serves sessions in
// process (the fuzz target) is not.
static bool Confined = false;

// A sanitizer build's runtime makes system calls of its own at any time (a
// report reads /proc/self/maps): the filter would kill the process there.
// Such a build is for finding bugs in tests, never for hosting.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool SanitizerBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
constexpr bool SanitizerBuild = true;
#else
constexpr bool SanitizerBuild = false;
#endif
#else
constexpr bool SanitizerBuild = false;
#endif

void confineAtStart(const StartOptions &O) {
  Confined = true;
  closeInherited(O.keepFd, O.filesFd);
  setLimit(RLIMIT_CORE, 0, 0);
  // The executor's own descriptors: the protocol's, stderr, its guest
  // memory's memfd, the statm below.
  setLimit(RLIMIT_NOFILE, 16, 16);
  // The executor writes no file; the memfd behind guest memory is the one
  // thing RLIMIT_FSIZE applies to (its offsets are not reused: 1 TiB of
  // mappings in one session's life). Past it ftruncate fails (EFBIG, a
  // guest ENOMEM) rather than the process ending on SIGXFSZ.
  std::signal(SIGXFSZ, SIG_IGN);
  setLimit(RLIMIT_FSIZE, rlim_t(1) << 40, rlim_t(1) << 40);
  if (O.namespaces)
    enterNamespaces(O.pidNamespace);
  // After the identity change (which clears it): the process dies with
  // the one that started it (the CLI, the server, the PID namespace's parent).
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  StatmFd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
}

bool lockDown(int AcceptFd, int FilesFd) {
  static bool Done = false;
  if (Done || !Confined || SanitizerBuild)
    return Done;
  scmp_filter_ctx F = seccomp_init(SCMP_ACT_KILL_PROCESS);
  if (!F) {
    errno = ENOSYS;
    warn("no seccomp filter");
    return false;
  }
  // What serving the protocol takes once set up: the descriptors it has,
  // memory (the guest's memfd, the code cache, the heap), threads (the
  // wall-time watchdog), clocks, signals (the fault handler of direct
  // guest accesses; abort), its limits, and the end.
  static const int Allowed[] = {
      SCMP_SYS(read),
      SCMP_SYS(write),
      SCMP_SYS(readv),
      SCMP_SYS(writev),
      SCMP_SYS(pread64),
      SCMP_SYS(close),
      SCMP_SYS(sendto), // send(MSG_DONTWAIT) on a session's socket
      SCMP_SYS(poll),
      SCMP_SYS(ppoll),
      SCMP_SYS(mmap),
      SCMP_SYS(munmap),
      SCMP_SYS(mprotect),
      SCMP_SYS(mremap),
      SCMP_SYS(madvise),
      SCMP_SYS(brk),
      SCMP_SYS(ftruncate),
      SCMP_SYS(fallocate),
      SCMP_SYS(futex),
      SCMP_SYS(set_robust_list),
      SCMP_SYS(rseq),
      SCMP_SYS(sched_yield),
      SCMP_SYS(clock_gettime),
      SCMP_SYS(clock_getres),
      SCMP_SYS(clock_nanosleep),
      SCMP_SYS(nanosleep),
      SCMP_SYS(gettimeofday),
      SCMP_SYS(getrusage),
      SCMP_SYS(getpid),
      SCMP_SYS(gettid),
      SCMP_SYS(rt_sigaction),
      SCMP_SYS(rt_sigprocmask),
      SCMP_SYS(rt_sigreturn),
      SCMP_SYS(sigaltstack),
      SCMP_SYS(restart_syscall),
      SCMP_SYS(exit),
      SCMP_SYS(exit_group),
      SCMP_SYS(getrlimit),
  };
  bool Ok = true;
  for (int Nr : Allowed)
    Ok &= seccomp_rule_add(F, SCMP_ACT_ALLOW, Nr, 0) == 0;
  // Threads, and no other clone: a new process would start outside the
  // filter's reach only by exec, which is forbidden too; clone3's flags
  // sit in memory the filter cannot read, so it fails as on an old kernel
  // and glibc falls back to clone.
  Ok &= seccomp_rule_add(F, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
                         SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD)) == 0;
  Ok &= seccomp_rule_add(F, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0) == 0;
  // Signals to itself only (abort).
  pid_t Self = getpid();
  Ok &= seccomp_rule_add(F, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1, SCMP_A0(SCMP_CMP_EQ, uint64_t(Self))) == 0;
  Ok &= seccomp_rule_add(F, SCMP_ACT_ALLOW, SCMP_SYS(kill), 1, SCMP_A0(SCMP_CMP_EQ, uint64_t(Self))) == 0;
  if (AcceptFd >= 0)
    for (int Nr : {SCMP_SYS(accept), SCMP_SYS(accept4)})
      Ok &= seccomp_rule_add(F, SCMP_ACT_ALLOW, Nr, 1, SCMP_A0(SCMP_CMP_EQ, uint64_t(AcceptFd))) == 0;
  // map-file's descriptors: received on the channel, then fstat'ed (the
  // fstat system call: no path) and copied from by sendfile into the guest
  // memory's memfd (at its position: lseek) or read with pread.
  if (FilesFd >= 0) {
    Ok &= seccomp_rule_add(F, SCMP_ACT_ALLOW, SCMP_SYS(recvmsg), 1, SCMP_A0(SCMP_CMP_EQ, uint64_t(FilesFd))) == 0;
    for (int Nr : {SCMP_SYS(fstat), SCMP_SYS(sendfile), SCMP_SYS(lseek)})
      Ok &= seccomp_rule_add(F, SCMP_ACT_ALLOW, Nr, 0) == 0;
  }
  // Its own limits (limitRun): setrlimit is prlimit64(0, ...).
  Ok &= seccomp_rule_add(F, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 1, SCMP_A0(SCMP_CMP_EQ, 0)) == 0;
  int E = Ok ? seccomp_load(F) : -EINVAL;
  seccomp_release(F);
  if (E) {
    errno = -E;
    warn("cannot install the seccomp filter");
    return false;
  }
  Done = true;
  return true;
}

void limitRun(uint32_t WallMillis, uint64_t MemoryCap) {
  if (!Confined)
    return;
  // The run ends itself at its wall time (the watchdog); this is for host
  // code that never returns to it. The guest's threads share one host
  // thread, so CPU time grows no faster than wall time.
  rusage U{};
  getrusage(RUSAGE_SELF, &U);
  rlim_t Used = rlim_t(U.ru_utime.tv_sec + U.ru_stime.tv_sec) + 1;
  rlimit Cpu{};
  getrlimit(RLIMIT_CPU, &Cpu);
  setLimit(RLIMIT_CPU, std::min<rlim_t>(Used + WallMillis / 1000 + 2, Cpu.rlim_max), Cpu.rlim_max);
  // Pages mapped now, plus the run's memory cap (its guest memory, viewed
  // once by the executor), 1 GiB for the code cache, the heap and the
  // watchdog's stack, and 64 GiB for guest mappings the program reserves
  // without touching them (each reserves as much host address space; Linux
  // lets a process do so, and the memory cap counts the pages it touches).
  char Buf[64] = {};
  if (StatmFd < 0 || pread(StatmFd, Buf, sizeof Buf - 1, 0) <= 0)
    return;
  uint64_t Pages = std::strtoull(Buf, nullptr, 10);
  uint64_t Limit = Pages * uint64_t(sysconf(_SC_PAGESIZE)) + MemoryCap + (uint64_t(65) << 30);
  rlimit As{};
  getrlimit(RLIMIT_AS, &As);
  setLimit(RLIMIT_AS, std::min<rlim_t>(Limit, As.rlim_max), As.rlim_max);
}

} // namespace linklab::emu::sandbox
