// linklab-executor-probe: linklab-executor plus, for tests only, a guest
// system call (sandbox::ProbeSyscall) that makes the executor's host
// process itself call what its argument names: what code that escaped the
// emulator would try. Each but 0 must end the process by its seccomp filter
// (tests/unit/executor_sandbox_test.cpp); 0 is allowed, and shows the hook
// works. Never installed: linklab-executor has no such call.
#include "sandbox.h"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <sched.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace {

int64_t probe(uint64_t Which) {
  static char Sh[] = "/bin/sh";
  static char *Argv[] = {Sh, nullptr};
  long R;
  switch (Which) {
  case 0: R = syscall(SYS_getpid); break;                                   // allowed
  case 1: R = syscall(SYS_openat, AT_FDCWD, "/etc/passwd", O_RDONLY); break; // a new file
  case 2: R = syscall(SYS_open, "/etc/passwd", O_RDONLY); break;
  case 3: R = syscall(SYS_socket, AF_INET, SOCK_STREAM, 0); break;          // the network
  case 4: R = syscall(SYS_execve, Sh, Argv, nullptr); break;                // another program
  case 5: R = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0); break;               // fork
  case 6: R = syscall(SYS_ptrace, PTRACE_TRACEME, 0, 0, 0); break;          // another process's memory
  case 7: R = syscall(SYS_kill, getpid() + 1, 0); break;                   // another process
  case 8: R = syscall(SYS_unshare, CLONE_NEWUSER); break;                   // new privileges
  default: return -ENOSYS;
  }
  if (Which == 5 && R == 0)
    _exit(0); // a fork that was let through: the parent reports it
  return R < 0 ? -errno : R;
}

const bool Installed = (linklab::emu::sandbox::ProbeHook = probe, true);

} // namespace
