// gdb attached to an emulated Process: the gdb_stub.h Target over the
// process's registers (a table per arch, gdb's register names and target
// description features), memory and threads, and the run loop's side of
// debugging: breakpoints and single-step through the code hook, write
// watchpoints by comparing the watched bytes after each instruction, ^C
// by polling the connection now and then.
#pragma once

#include "gdb_stub.h"

#include "protocol/protocol.h"

#include <map>
#include <memory>

namespace linklab::emu {

class Process;

class Debugger {
public:
  // gdb connects to ListenFd (bound and listening; ours to close) when the
  // first run starts; the wait ends too if the client hangs up PeerFd.
  Debugger(Process &P, int ListenFd, int PeerFd);
  ~Debugger();
  Debugger(const Debugger &) = delete;
  Debugger &operator=(const Debugger &) = delete;

  // The run loop's calls (process.cpp).
  // A run starts at Pc: waits for gdb on the first run; whether this run is
  // debugged (false once gdb has detached or gone).
  bool runStarts();
  // Before the instruction at Pc (the code hook): true stops the engine.
  bool check(uint64_t Pc);
  // The engine stopped for check() (or the run's first instruction is
  // due): gdb decides. False when gdb killed the process.
  bool stopped(uint64_t Pc);
  // The run ended: gdb hears how, and (a fault, a signal) may look first.
  void runEnded(executor::RunResultMsg &R);

private:
  class ProcessTarget;
  Process &P;
  int ListenFd, PeerFd;
  std::unique_ptr<gdb::Connection> Conn;
  std::unique_ptr<ProcessTarget> Target;
  std::unique_ptr<gdb::Stub> Stub;
  // Why check() stopped the engine.
  gdb::Stop Pending;
  bool Stepping = false;
  // The instruction the process resumes at runs without stopping for a
  // breakpoint there (the one it stopped for).
  std::optional<uint64_t> ResumeAt;
  uint32_t PollCountdown = 0;
  friend class ProcessTarget;
  struct Watch {
    gdb::BreakKind kind;
    uint64_t length;
    std::string bytes; // the value when inserted or last reported
  };
  std::map<uint64_t, gdb::BreakKind> Breakpoints;
  std::map<uint64_t, Watch> Watches;
};

} // namespace linklab::emu
