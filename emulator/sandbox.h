// The executor confined by the host, not only by the emulator (README.md,
// "The sandbox"): a bug in Unicorn or in the system-call layer that hands
// guest code the executor's own host process must still reach no file,
// socket, process or privilege. In the order a session applies them:
//   confineAtStart  before the first client byte: inherited descriptors
//                   closed, a parent-death signal, rlimits, an unprivileged
//                   user and new user/mount/network/IPC/UTS(/PID) namespaces
//                   (a logged warning where the kernel refuses them);
//   lockDown        after the session's set-up: the seccomp-BPF filter;
//   limitRun        before each run: CPU seconds and address space derived
//                   from the run's limits.
#pragma once

#include <cstdint>

namespace linklab::emu::sandbox {

struct StartOptions {
  int keepFd = -1;  // besides 0, 1 and 2: a TCP session's socket, or gdb's listening one
  int filesFd = -1; // and the map-file descriptor channel (SessionOptions::filesFd)
  bool namespaces = true;
  // A new PID namespace needs a child to live in it: the caller's process
  // then only waits for that child and ends as it ends (stdio mode, where
  // the client waits for the process it started).
  bool pidNamespace = true;
};
void confineAtStart(const StartOptions &O);

// Installs the filter: any system call outside what serving the protocol
// needs kills the process (SIGSYS). AcceptFd (>= 0): the listening socket
// gdb connects to (-gdb), the one descriptor accept may take. FilesFd (>= 0):
// the channel map-file's descriptors come on, the one recvmsg may read
// (what arrives is only ever fstat'ed, read and closed). Once per
// process, and only in one confineAtStart confined (limitRun too); later
// calls do nothing. Returns false (with a warning on stderr) where the
// kernel has no seccomp.
bool lockDown(int AcceptFd = -1, int FilesFd = -1);

// CPU seconds up to the run's wall time from now (SIGXCPU past it), and
// address space up to what the process maps now plus what the run's memory
// cap may add (the guest's memory is mapped twice, and the code cache).
void limitRun(uint32_t WallMillis, uint64_t MemoryCap);

// Test builds only (linklab-executor-probe): a guest system call with this
// number makes the host call the hook names (SandboxProbe in tests/), so that
// tests can see the filter end the process. Null in linklab-executor.
constexpr uint64_t ProbeSyscall = 0x5ec0;
extern int64_t (*ProbeHook)(uint64_t Which);

} // namespace linklab::emu::sandbox
