// A debugger attached to an emulated Process: the gdb_stub.h Target over
// the process's registers (a table per arch, gdb's register names and
// target description features), memory and threads, and the run loop's
// side of debugging: breakpoints, single-step and step over through the
// code hook, watchpoints through a memory hook (the process runs on QEMU's
// TLB while gdb debugs it, so every access reaches it), ^C by polling the
// connection now and then. Who decides at a stop is a front end: gdb over
// its socket, or the executor protocol's client (debug-stop and
// debug-resume, session.cpp), the same Debugger under both.
#pragma once

#include "gdb_stub.h"
#include "unwind.h"

#include "protocol/protocol.h"

#include <map>
#include <memory>
#include <unicorn/unicorn.h>
#include <utility>
#include <vector>

namespace linklab::emu {

class Process;
class Debugger;

// Who decides what a stopped process does next.
class DebugFrontEnd {
public:
  virtual ~DebugFrontEnd() = default;
  // The process stopped (St): tell, then wait for what to do next.
  virtual gdb::Resume stopped(Debugger &D, const gdb::Stop &St) = 0;
  // The process ended (St: Exited or Terminated). True: the user asks to
  // start the program again (gdb's `run`), as a new process (restarted).
  virtual bool ended(const gdb::Stop &) { return false; }
  // It could not start again: say so; true if the user asks again.
  virtual bool runRefused() { return false; }
  // The program starts again as the process T.
  virtual void restarted(gdb::Target &) {}
  // A line for the user (a limit ended the run).
  virtual void console(std::string_view) {}
  // Whether the user asked to stop the running process; does not wait.
  virtual bool interrupted() { return false; }
  // What becomes readable when the user may have asked that (-1: nothing),
  // and whether the ask is already in hand (read with a resume).
  virtual int wakeFd() const { return -1; }
  virtual bool interruptPending() { return false; }
  virtual bool open() const = 0;
  // Killed before it ran (gdb's extended-mode `run`): it ends unless run.
  virtual bool killed() const { return false; }
  // Whether a resume names the signal a fault passes (gdb); otherwise a
  // fault takes its course when the process goes on.
  virtual bool choosesSignals() const { return false; }
  // What the run's result says when a Kill ended it.
  virtual std::string killMessage() const { return "killed by the debugger"; }
};

class Debugger {
public:
  // gdb connects to ListenFd (bound and listening; ours to close) when the
  // first run starts; the wait ends too if the client hangs up PeerFd.
  Debugger(Process &P, int ListenFd, int PeerFd);
  // A front end there already (the protocol's client): no watchpoints.
  Debugger(Process &P, std::unique_ptr<DebugFrontEnd> Front);
  ~Debugger();
  Debugger(const Debugger &) = delete;
  Debugger &operator=(const Debugger &) = delete;

  // The run loop's calls (process.cpp).
  // A run starts at Pc: waits for gdb on the first run; whether this run is
  // debugged (false once gdb has detached or gone).
  bool runStarts();
  // Before the instruction at Pc, Size bytes long (the code hook): true stops the engine.
  bool check(uint64_t Pc, uint32_t Size);
  // The engine stopped for check() (or the run's first instruction is
  // due): gdb decides. False when gdb killed the process.
  bool stopped(uint64_t Pc);
  // A fault (SIGSEGV, or SIGILL if Illegal) at the pc: gdb hears of it and
  // decides its course.
  enum class FaultCourse { Deliver, Ignore, Kill };
  FaultCourse faulted(executor::FaultKind K, uint64_t Pc, uint64_t Addr);
  bool attached() const { return Front && Front->open(); }
  // The run ended: gdb hears how, and (a fault, a signal) may look first.
  void runEnded(executor::RunResultMsg &R);
  // gdb asked to run the program again once it ended (`run`, `start`):
  // the executor builds the process anew (session.cpp) and this debugger's
  // conversation goes on with it (rerun), or is told it cannot (refuseRun:
  // whether gdb asks again).
  bool runAgain() const { return Again; }
  std::unique_ptr<Debugger> rerun(Process &Fresh);
  bool refuseRun(const std::string &Why);
  // The memory hook's, while watchpoints are set: the instruction running
  // reads or writes [Addr, Addr+Size).
  void access(bool Write, uint64_t Addr, unsigned Size);

  // A system call waits (for stdin): what a ^C makes readable (-1: none),
  // and the stop for it when WakeFd woke the wait (false: the run ended).
  int wakeFd() const { return Front && Front->open() ? Front->wakeFd() : -1; }
  bool interruptPending() { return Front && Front->interruptPending(); }
  bool stopInCall();

  // The front end's view of the stopped process.
  // The stop St as the executor protocol tells it (debug-stop): why, the
  // general registers, the stack, return addresses (unwound through the
  // .eh_frame sections EhFrames, or a scan of the stack where none).
  executor::DebugStopMsg describeStop(const gdb::Stop &St, const std::vector<executor::MemoryRange> &EhFrames);
  std::optional<std::string> readMemory(uint64_t Addr, size_t Len);
  // The software breakpoints from now on: exactly these.
  void setBreakpoints(const std::vector<uint64_t> &Addrs);

private:
  // The memory hook for watchpoints, on gdb's runs.
  void watchAccesses();
  // Makes room for the state before an instruction when the first watchpoint is set.
  void watchesChanged();
  // Undoes the instruction that triggered a watchpoint (StopBefore).
  void rewind();
  // Asks the front end at a stop; its answer's step-over state.
  gdb::Resume ask(const gdb::Stop &St);
  // Where a call that the instruction at Over.pc made returns to (a step
  // over), now that the next instruction is at Pc; nullopt if it made none.
  std::optional<uint64_t> callReturn(uint64_t Pc);
  // Whether Addr follows a call instruction in executable memory (Exec:
  // the executable ranges), a return address.
  bool afterCall(uint64_t Addr, const std::vector<std::pair<uint64_t, uint64_t>> &Exec);
  // The return addresses a scan of the stack finds (no unwind information).
  std::vector<uint64_t> scanReturns();
  class ProcessTarget;
  class GdbFrontEnd;
  // The call-frame information of the ranges it was read from (describeStop's).
  std::vector<executor::MemoryRange> FramesOf;
  std::unique_ptr<unwind::FrameTable> Frames;
  Process &P;
  int ListenFd, PeerFd;
  std::unique_ptr<ProcessTarget> Target;
  std::unique_ptr<DebugFrontEnd> Front;
  // Why check() stopped the engine.
  gdb::Stop Pending;
  bool Stepping = false;
  bool AtEntry = false;  // the pending stop is the run's first
  uint32_t InsnSize = 0; // of the instruction check() stopped before (0: not known)
  // A fault stop's kind and address (debug-stop).
  executor::FaultKind FaultAt = executor::FaultKind::None;
  uint64_t FaultAddress = 0;
  // A step over: the instruction it started at and the stack pointer
  // there; once that was a call, where it returns to (Running).
  struct StepOver {
    uint64_t pc = 0, sp = 0, ret = 0;
    bool running = false;
  };
  std::optional<StepOver> Over;
  bool Resumed = false;       // since the first stop
  bool Killed = false;        // the front end killed the process (it knows how it ended)
  bool Again = false;         // runAgain()
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
