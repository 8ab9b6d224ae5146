// gdb attached to an emulated Process: the gdb_stub.h Target over the
// process's registers (a table per arch, gdb's register names and target
// description features), memory and threads, and the run loop's side of
// debugging: breakpoints and single-step through the code hook,
// watchpoints through a memory hook (the process runs on QEMU's TLB while
// debugged, so every access reaches it), ^C by polling the connection now
// and then.
#pragma once

#include "gdb_stub.h"

#include "protocol/protocol.h"

#include <map>
#include <memory>
#include <unicorn/unicorn.h>
#include <utility>
#include <vector>

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
  // A fault (SIGSEGV, or SIGILL if Illegal) at the pc: gdb hears of it and
  // decides its course.
  enum class FaultCourse { Deliver, Ignore, Kill };
  FaultCourse faulted(executor::FaultKind K, uint64_t Pc, uint64_t Addr);
  bool attached() const { return Conn && Conn->open(); }
  // The run ended: gdb hears how, and (a fault, a signal) may look first.
  void runEnded(executor::RunResultMsg &R);
  // The memory hook's, while watchpoints are set: the instruction running
  // reads or writes [Addr, Addr+Size).
  void access(bool Write, uint64_t Addr, unsigned Size);

private:
  // Makes room for the state before an instruction when the first watchpoint is set.
  void watchesChanged();
  // Undoes the instruction that triggered a watchpoint (StopBefore).
  void rewind();
  class ProcessTarget;
  Process &P;
  int ListenFd, PeerFd;
  std::unique_ptr<gdb::Connection> Conn;
  std::unique_ptr<ProcessTarget> Target;
  std::unique_ptr<gdb::Stub> Stub;
  // Why check() stopped the engine.
  gdb::Stop Pending;
  bool Stepping = false;
  bool Resumed = false;       // since the first stop
  bool FaultReported = false; // gdb let a fault through: its end needs no second stop
  // The signal of the last stop, for gdb's $_siginfo (Linux's numbers; 0: none).
  struct SigInfo {
    int signo = 0, code = 0;
    uint64_t address = 0;
  } LastSignal;
  // The instruction the process resumes at runs without stopping for a
  // breakpoint there (the one it stopped for).
  std::optional<uint64_t> ResumeAt;
  uint32_t PollCountdown = 0;
  friend class ProcessTarget;
  std::map<uint64_t, gdb::BreakKind> Breakpoints;
  // (address, kind) -> length: `watch` and `rwatch` may watch one address.
  std::map<std::pair<uint64_t, gdb::BreakKind>, uint64_t> Watches;
  uc_hook MemHook = 0;
  // Where gdb expects a watchpoint's stop (its gdbarch's
  // have_nonsteppable_watchpoint): before the accessing instruction, as
  // AArch64's, Arm's and RISC-V's debug hardware stops, or after it (x86).
  bool StopBefore;
  // StopBefore: the registers before the running instruction, and the
  // bytes its stores replaced, to undo it when it triggers a watchpoint.
  uc_context *Before = nullptr;
  std::vector<std::pair<uint64_t, std::string>> Undo;
  // A watchpoint the running instruction triggered, and in which thread.
  std::optional<gdb::Stop> Hit;
  uint64_t HitThread = 0;
  bool Rewind = false; // the pending stop is Hit's, undone first
};

} // namespace linklab::emu
