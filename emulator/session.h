// One protocol session over a pair of file descriptors: decode requests,
// answer them from one emulated Process, stream program output as it comes.
#pragma once

namespace linklab::emu {

// Serves until hangup, end of input, or a protocol error (reported to the
// peer as a failure with sequence 0 before closing). Returns 0 after a clean
// hangup or end of input, 1 after an error.
// GdbListenFd: a listening socket gdb connects to when the first run starts
// (gdb_target.h); -1: no debugging.
int serveSession(int InFd, int OutFd, int GdbListenFd = -1);
// The same, then ends the host process with that code without taking the
// emulated process apart: unmapping its memory and freeing the engine is
// the kernel's work at exit anyway, and a client waits for the executor to
// end (measured: uc_close and the unmaps added 1-4 ms to every run).
[[noreturn]] void serveSessionThenExit(int InFd, int OutFd, int GdbListenFd = -1);

} // namespace linklab::emu
