// One protocol session over a pair of file descriptors: decode requests,
// answer them from one emulated Process, stream program output as it comes.
#pragma once

#include <cstdint>

namespace linklab::emu {

struct SessionOptions {
  // Program output kept per run (0: all): past it the rest is dropped and
  // the program's stderr gets one line saying so. The public service sets
  // 1 MiB; the CLI none.
  uint64_t outputCap = 0;
  int gdbListenFd = -1;
  // A Unix socket the client passes map-file's descriptors on (a spawned
  // executor's `files-fd=N`); -1: map-file fails.
  int filesFd = -1;
};

// Serves until hangup, end of input, or a protocol error (reported to the
// peer as a failure with sequence 0 before closing). Returns 0 after a clean
// hangup or end of input, 1 after an error.
// O.gdbListenFd: a listening socket gdb connects to when the first run
// starts (gdb_target.h); -1: no debugging.
int serveSession(int InFd, int OutFd, const SessionOptions &O = {});
// The same, then ends the host process with that code without taking the
// emulated process apart: unmapping its memory and freeing the engine is
// the kernel's work at exit anyway, and a client waits for the executor to
// end (measured: uc_close and the unmaps added 1-4 ms to every run).
[[noreturn]] void serveSessionThenExit(int InFd, int OutFd, const SessionOptions &O = {});

} // namespace linklab::emu
