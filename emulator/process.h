// One emulated process: a Unicorn engine for one architecture, its address
// space (reservations the linker fills, a stack, a heap, an mmap area, the
// return trap, the program headers) and the C runtime's host side: Linux's
// system calls (linux_syscalls.cpp, SYSCALLS.md) and the start state exec
// gives a process; semihosting for picolibc. Unicorn appears nowhere
// outside emulator/.
#pragma once

#include "arch_table.h"
#include "gdb_target.h"
#include "guest_fs.h"
#include "protocol/address_plan.h"
#include "protocol/protocol.h"
#include "support/error.h"
#include "unicorn_quirks.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <ctime>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>

namespace linklab::emu {

using executor::RunResultMsg;
using OutputFn = std::function<void(executor::Stream, std::span<const uint8_t>)>;
// The program's stdin when it reads fd 0 with nothing buffered: at most Max
// bytes, none at end of file; nullopt if none came before Deadline, or
// before WakeFd (>= 0: gdb's connection) became readable (^C: the wait is
// taken up again once the debugger lets the process go on).
using InputFn = std::function<std::optional<std::vector<uint8_t>>(
    uint64_t Max, std::chrono::steady_clock::time_point Deadline, int WakeFd)>;

// The fixed address-space plan, below 2^38: every arch's physical address
// space holds it, and so does the host window that mirrors it
// (direct_memory.h). Page 0 stays unmapped so null dereferences fault.
namespace layout {
constexpr uint64_t PageSize = 0x1000;
constexpr uint64_t ReturnTrap = executor::FixedAddresses::ReturnTrap; // one executable page; reaching it ends a call
constexpr uint64_t NoOp = executor::FixedAddresses::NoOp;             // a bare return in that page: _init/_fini
constexpr uint64_t ToUserMode = ReturnTrap + 0x200; // and the arch's way to user mode (ArchInfo::toUserMode)
// The program's ELF header and program headers, as a loaded executable's
// first page: AT_PHDR and __ehdr_start point here (read-only). Inside the
// host window (direct_memory.h), as guest code reads it.
constexpr uint64_t Headers = executor::FixedAddresses::Headers;
// The arch's rt_sigreturn trampoline (SignalFrame) in a page of its own
// (read and execute), where Linux's vDSO has it: inside the host window, so
// that an unwinder (thread cancellation, an exception from a handler) can
// read its instructions, as libgcc's fallback for signal frames does.
constexpr uint64_t SigReturn = Headers + 2 * PageSize;                // the page after i386's GDT
constexpr uint64_t ReservationBase = executor::ReservationPlan::Base; // linker allocations grow up from here
constexpr uint64_t ReservationEnd = executor::ReservationPlan::End;
// brk / picolibc heap, mapped on first touch. Within +-2 GiB of every
// reservation: picolibc's sbrk reaches __heap_start/__heap_end PC-relatively
// (RISC-V medany auipc, AArch64 adrp).
constexpr uint64_t HeapBase = executor::FixedAddresses::HeapBase;
constexpr uint64_t HeapSpan = executor::FixedAddresses::HeapSpan; // 1 GiB of address space
constexpr uint64_t StackSize = 8 << 20;
// Where anonymous mmaps (and TLS blocks) go, and the stack: above the
// heap, below 4 GiB (the top 256 MiB stay free, where Linux keeps Arm's
// vector page). A 64-bit process's mmaps go on above 4 GiB once the area
// below is full: until then its translated code takes only the low 32
// bits of an address (direct_memory.h).
struct Upper {
  uint64_t stackTop;
  struct Area {
    uint64_t base, end;
  } mmap[2]; // used in this order; an empty second for a 32-bit process
  constexpr uint64_t mmapSpan() const { return std::max(mmap[0].end - mmap[0].base, mmap[1].end - mmap[1].base); }
};
constexpr uint64_t StackGap = 1ull << 28; // unmapped between the mmap area and the stack
constexpr Upper Upper32 = {0xf0000000, {{0x80000000, 0xf0000000 - StackSize - StackGap}, {}}};
constexpr Upper Upper64 = {0xf0000000, {Upper32.mmap[0], {0x100000000, 0x3000000000}}};
static_assert(Upper64.mmap[1].end <= DirectMemory::WindowEnd, "the plan must fit the host window");
static_assert(Upper64.stackTop <= uint64_t(1) << DirectMemory::NarrowBits,
              "below 4 GiB, all of it but the second mmap area");
} // namespace layout

constexpr uint64_t MaxTransfer = executor::MaxFrameSize - 1024; // read-memory and output must fit one frame

class Process {
public:
  // Debugged: every guest access goes through QEMU's TLB (no DirectMemory),
  // where the debugger's memory hooks see it (gdb's watchpoints).
  static Expected<std::unique_ptr<Process>> create(const Triple &TT, bool Debugged = false);
  ~Process();

  std::vector<executor::ExposedSymbol> exposedSymbols() const;
  uint64_t lookup(std::string_view Name) const;

  Expected<uint64_t> reserve(uint64_t Size, uint64_t Align, executor::Region R = executor::Region::Objects);
  Error finalize(const std::vector<executor::SegmentWrite> &Segs);
  // finalize, each segment's content read from Fd (a regular file of
  // FileSize bytes, the client's: every range is checked against it).
  Error mapFile(int Fd, uint64_t FileSize, const std::vector<executor::FileSegment> &Segs);
  Error deallocate(uint64_t Base);
  Expected<std::vector<uint8_t>> read(uint64_t Addr, uint64_t Size);
  Error write(uint64_t Addr, std::span<const uint8_t> Bytes);
  // A write message's pieces: each inside one reservation, all checked
  // before any is written.
  Error write(const std::vector<executor::WritePiece> &Pieces);
  Expected<executor::TLSResultMsg> setupTLS(const executor::SetupTLSMsg &M);

  // Without In, stdin is empty. A run-main with `debug` set stops where
  // Front decides (the protocol's client: debug-stop and debug-resume).
  RunResultMsg runMain(const executor::RunMainMsg &M, OutputFn Out, InputFn In = {},
                       std::unique_ptr<DebugFrontEnd> Front = nullptr);
  RunResultMsg call(const executor::CallMsg &M, OutputFn Out, InputFn In = {});
  // gdb connects to ListenFd (listening; ours to close) when the first run
  // starts, and debugs the runs from then on (gdb_target.h); PeerFd is the
  // client's side, whose hangup ends the wait for gdb.
  void debugWith(int ListenFd, int PeerFd);
  // gdb asked to run the program again after its run-main ended (extended
  // mode's `run`): the session builds a fresh process the way this one was
  // built, which takes over gdb's conversation (debugAfter) and runs again.
  bool runAgain() const { return Debug && Debug->runAgain(); }
  void debugAfter(Process &Old) { Debug = Old.Debug->rerun(*this); }
  // The fresh process could not be built (Why): gdb hears so; true if it asks again.
  bool refuseRun(const std::string &Why) { return Debug->refuseRun(Why); }

private:
  friend struct Linux; // the system calls (linux_syscalls.cpp)
  friend class Debugger;
  // What a handler's siginfo says: si_code, and si_addr (a fault, code > 0)
  // or si_pid/si_uid (sent by the process, code <= 0).
  struct SigInfo {
    int signo = 0, code = 0;
    uint64_t addr = 0;
  };
  // One thread of the process (threads.cpp). The running one's registers
  // are the engine's; every other keeps its own in ctx, and pc, until the
  // scheduler switches to it. Signal state is per thread, as in Linux.
  struct Thread {
    uint64_t tid = 0;
    // Host bytes charged to the memory cap for it (threadCost): the
    // registers' part until it exits, the record's until the run ends.
    uint64_t charged = 0;
    enum class State : uint8_t { Runnable, Waiting, Exited } state = State::Runnable;
    uc_context *ctx = nullptr;
    uint64_t pc = 0;
    uint64_t clearChildTid = 0, robustList = 0; // set_tid_address / CLONE_CHILD_CLEARTID, set_robust_list's head
    uint64_t SigMask = 0, SigPending = 0;       // bit N-1: signal N (pending: sent to this thread)
    std::map<int, SigInfo> PendingInfo;
    std::optional<uint64_t> SuspendMask; // sigsuspend: the mask a handler's frame restores
    // The interrupted context of each live signal frame, by the frame's
    // address: rt_sigreturn restores it (FP/SIMD included), then the general
    // registers and the mask from the frame.
    std::map<uint64_t, uc_context *> SigFrames;
    uint64_t AltStackSp = 0, AltStackSize = 0; // sigaltstack; size 0: none
    // While Waiting: on a futex word (futexAddr, the bitset it waits for),
    // until wakeAt if timed (the call then answers timeoutResult), and what
    // the deadlock report names. A deliverable signal ends every wait (-EINTR).
    uint64_t futexAddr = 0;
    uint32_t bitset = 0;
    std::optional<std::chrono::steady_clock::time_point> wakeAt;
    int64_t timeoutResult = 0;
    std::string waitingIn;
    bool waitsForSignal = false;
    std::optional<int64_t> answer; // the waiting call's result, written when it runs again
    uint64_t remain = 0;           // nanosleep's remaining-time timespec (fields of remainSize bytes), if any
    uint8_t remainSize = 0;
    // rt_sigtimedwait: the signals it waits for (unblocked meanwhile), the
    // mask to restore, where the siginfo goes.
    uint64_t sigwaitSet = 0, sigwaitMask = 0, sigwaitInfo = 0;
    // CLONE_SETTLS: the thread pointer to start with, and (i386) its GDT entry.
    std::optional<uint64_t> tls;
    uint32_t tlsEntry = GdtTlsEntry;
    uint64_t stack = 0; // the new thread's stack pointer (0: the parent's)
  };
  struct RunState {
    OutputFn out;
    InputFn in;
    uint64_t budget = 0, executed = 0, memCap = 0;
    bool stopped = false;
    bool debugStop = false; // the debugger's code hook stopped the engine (gdb_target.h)
    // A ^C while a system call waits (stdin): the debugger's stop there,
    // with the wall clock paused; false if the debugger ended the run.
    std::function<bool()> stopInCall;
    // A fault the debugger hears of first, as ptrace stops a process at the
    // signal: gdb may move the pc and go on without it (an x86 inferior
    // call returns to a breakpoint on the non-executable stack).
    struct DebugFault {
      executor::FaultKind kind;
      uint64_t pc, address;
    };
    std::optional<DebugFault> debugFault;
    bool faultDebugged = false; // gdb let the current fault through: it takes its course
    bool resume = false;        // a handled trap stopped Unicorn; continue at resumePc
    uint64_t resumePc = 0;
    uint64_t lastPc = 0;                            // the instruction being executed, kept by the counting hook
    std::chrono::steady_clock::time_point deadline; // the wall-time limit, which sleeps respect
    uint32_t wallMs = 0;
    // Signal work for the run loop, between two uc_emu_start calls
    // (signals.cpp): pending signals became deliverable, the program called
    // rt_sigreturn, or a fault has a handler (at faultPc).
    bool signalsDue = false;
    uint8_t sigreturnDue = 0; // 1: rt_sigreturn; 2: the 32-bit arches' sigreturn (from a handler without SA_SIGINFO)
    std::optional<SigInfo> fault;
    uint64_t faultPc = 0;
    // Thread work for the run loop (threads.cpp): a clone made a thread
    // whose registers are still to be set, or the running thread blocked,
    // yielded, exited or used up its time slice.
    Thread *cloned = nullptr;
    bool switchDue = false;
    uint64_t sliceBlocks = 0; // blocks the running thread has run in its slice
    uc_hook sliceHook = 0;    // counts them once the process has a second thread
    RunResultMsg result;
  };
  class Watchdog;
  Process(const ArchInfo &A, uc_engine *UC)
      : A(A), Space(A.wordSize == 4 ? layout::Upper32 : layout::Upper64), UC(UC), Stores(UC),
        NextMmap(Space.mmap[0].base) {}
  Error init(bool Debugged);
  // Starts at Entry with registers already set; ends at the return trap, an
  // exit, a fault or a limit.
  // A debugger (debugWith) debugs the MainRun runs (run-main), not calls.
  RunResultMsg run(uint64_t Entry, const executor::Limits &L, OutputFn Out, InputFn In, bool MainRun = false);
  // The stack exec leaves: argc, argv, envp, auxv and the strings they name.
  Error pushArgv(const executor::RunMainMsg &M, uint64_t &Sp, uint64_t &Argv, uint64_t &Envp);
  // Writes the ELF header and program headers at layout::Headers; their count.
  Expected<uint64_t> writeHeaders(uint64_t Entry);
  uint64_t phdrSize() const { return A.wordSize == 8 ? 56 : 32; }
  // Linux's initial floating-point and vector state.
  void resetFloatingPoint();
  Error setReturnAddress(uint64_t &Sp);
  // Integer arguments as the ABI passes them: the argument registers, then
  // the stack words above the return address (i386: all of them).
  Error passArguments(std::span<const uint64_t> Args, uint64_t &Sp);
  // Words of the process's size (4 or 8 bytes each) at Addr.
  Error writeWords(uint64_t Addr, std::span<const uint64_t> Words);
  // An N-byte integer (N <= 8) at P in the guest's data byte order.
  void storeGuest(uint8_t *P, uint64_t V, unsigned N) const;
  uint64_t loadGuest(const uint8_t *P, unsigned N) const;
  // The thread pointer, as the arch keeps it (a register, or i386's %gs
  // through a GDT descriptor of that base: set_thread_area's entry Entry).
  Error setThreadPointer(uint64_t Tp, uint32_t Entry = GdtTlsEntry);
  Error enterUserMode();
  uint64_t threadCost() const;
  bool emulateIdRegisterRead(uint64_t Pc);
  Error mapGdt();
  static constexpr uint32_t GdtTlsEntry = 12; // GDT_ENTRY_TLS_MIN of a 64-bit kernel running 32-bit code
  static constexpr uint64_t Pid = 1000;       // getpid(), and the main thread's tid
  Expected<uint64_t> mapAnonymous(uint64_t Size, uint32_t Prot);
  Error unmapAnonymous(uint64_t Base, uint64_t Size);
  // mprotect made [.., End) of the mapping at Base accessible: charged up to End.
  Error chargeAccess(uint64_t Base, uint64_t End);
  Error mapHeapAround(uint64_t Addr);
  // On first touch of an unmapped heap address (a Unicorn memory hook or a
  // direct access): false when the memory cap forbids it, the run stopped.
  bool mapHeapOnTouch(uint64_t Addr);
  bool chargeMemory(uint64_t Bytes);
  Error overCap(uint64_t Size) const; // an error naming the cap if Size more bytes exceed it
  // Refuses a guest-driven map or protect that could add Regions regions
  // past the budget Unicorn survives (see process.cpp, MaxRegions).
  Error roomForRegions(unsigned Regions, const char *What);
  // finalize's checks and protections for Count segments, Info(I) naming
  // segment I's address, protection, content size and zero fill; Content
  // writes its content once the pages are writable.
  struct SegmentInfo {
    uint64_t address, contentSize, zeroFill;
    uint8_t prot;
  };
  Error finalizeEach(size_t Count, const std::function<SegmentInfo(size_t)> &Info,
                     const std::function<Error(size_t, const std::string &Where)> &Content);

  // Hooks (Unicorn calls them with `this` as user data).
  static bool onInvalidMemory(uc_engine *, uc_mem_type, uint64_t, int, int64_t, void *);
  static void onInterrupt(uc_engine *, uint32_t, void *);
  static void onSyscallInsn(uc_engine *, void *);
  static void onCode(uc_engine *, uint64_t, uint32_t, void *);
  static bool onInvalidInsn(uc_engine *, void *);
  bool isBreakInsn(uint64_t Pc); // one of A.breakInsns is at Pc

  // ---- signals (signals.cpp) ----
  struct Action {
    uint64_t handler, flags, restorer, mask;
  };
  Action action(int Sig) const;
  // A signal the process sends itself (kill, tgkill...) to thread To, or
  // (null) the process: pending, ignored, or the end of the run, as its
  // action and the mask say.
  void raise(int Sig, int Code, Thread *To = nullptr);
  uint64_t pendingFor(const Thread &T) const { return T.SigPending | SharedPending; }
  // Takes T's first pending signal in Set (its own before the process's,
  // lowest first): the number, or 0.
  int takeSignal(Thread &T, uint64_t Set, SigInfo &I);
  void putSigInfo(uint8_t *B, const SigInfo &I) const; // a siginfo_t's fields at B
  // A fault of kind K: true if a handler will run (the run loop delivers it).
  bool faultSignal(int Sig, int Code, uint64_t Pc, uint64_t Addr);
  // The run loop's signal work; the PC to continue at (the run may have stopped).
  uint64_t handleSignals(uint64_t Pc);
  // Builds the frame and enters the handler; false if the run stopped.
  bool deliver(const SigInfo &I, uint64_t &Pc);
  bool sigreturn(uint64_t &Pc, bool Old);
  uint64_t resumePc();                       // where the CPU stopped, as uc_emu_start takes it (Arm Thumb: odd)
  void dropFrames(uint64_t Lo, uint64_t Hi); // saved contexts of frames in [Lo, Hi)
  void noteSignalsDue();                     // after a system call: deliverable signals stop the engine

  // ---- threads (threads.cpp) ----
  Thread &mainThread() { return *Threads.begin()->second; }
  size_t liveThreads() const;
  Thread *findThread(uint64_t Tid); // a live thread, or null
  // The running thread waits (the run loop switches away): on a futex word,
  // for a signal, or for a time (Until). Answers what the call returns now,
  // which the waiting call's real answer replaces when it runs again; a
  // deliverable signal pending already makes it -EINTR at once.
  int64_t wait(std::string What, bool ForSignal, std::optional<std::chrono::steady_clock::time_point> Until,
               int64_t AtTimeout);
  void wake(Thread &T, int64_t Answer);
  // Wakes up to N waiters on Addr whose bitset meets Bitset; how many.
  uint64_t futexWake(uint64_t Addr, uint64_t N, uint32_t Bitset = ~0u);
  // Moves up to N waiters from Addr to To; how many.
  uint64_t futexRequeue(uint64_t Addr, uint64_t To, uint64_t N);
  // The running thread ends (exit): its robust mutexes released, its
  // clear_child_tid written and woken.
  void exitThread();
  void releaseRobustList();
  void yield(); // sched_yield, or the end of a time slice
  // Run loop: sets up RunState::cloned's registers (the parent's, at Pc).
  void startThread(uint64_t Pc);
  // Run loop: the next thread to run and the PC it continues at; the run
  // stops on a deadlock or the time limit.
  uint64_t switchThread(uint64_t Pc);
  void endThreads(); // at the end of a run: back to the main thread alone
  // A thread that waited in rt_sigtimedwait runs again: its mask back, and
  // the signal it waited for, if one came, its answer.
  void finishSigwait(Thread &T);
  void freeThread(Thread &T);    // its saved contexts (and their charge, threadCost)
  std::string threadTag() const; // " in thread N" once the process has had a second thread
  static void onBlock(uc_engine *, uint64_t, uint32_t, void *);

  void syscall(); // linux_syscalls.cpp
  // A one-line note on the program's stderr, once per system call number.
  void noteSyscall(uint64_t Nr, const char *Name, const char *What);
  bool semihosting(uint64_t Pc); // false: not a semihosting trap
  void fault(executor::FaultKind K, uint64_t Pc, uint64_t Addr);
  void stop(executor::RunStatus S, int64_t Value, std::string Message = {});
  uint64_t reg(int R);
  void setReg(int R, uint64_t V);

  const ArchInfo &A;
  const layout::Upper Space;
  uc_engine *UC;
  std::vector<uc_hook> Hooks;
  FastStores Stores; // every map, protect and unmap goes through it

  // Reservations: base -> size (mapped PROT_NONE until finalized).
  std::map<uint64_t, uint64_t> Reservations;
  // Reservations nothing has written yet (no finalize, write or run): their
  // memory is fresh, so still zero, and a zero-fill there is skipped.
  std::set<uint64_t> Untouched;
  executor::ReservationPlan Reserved; // where the next reservation goes
  uint64_t Brk = layout::HeapBase;
  std::map<uint64_t, uint64_t> HeapChunks; // base -> size, mapped read-write on first touch
  uint64_t HeapMapped = 0;
  // Anonymous mappings are carved from large read-write arena chunks; free
  // ranges are kept zeroed so a new mapping reads as zero.
  uint64_t NextMmap;
  std::map<uint64_t, uint64_t> MmapFree; // base -> size
  std::map<uint64_t, uint64_t> Mmaps;    // base -> size
  std::set<uint64_t> MmapReprotected;    // bases whose pages are no longer read-write
  // Mappings made inaccessible (PROT_NONE): base -> how many bytes from the
  // base the memory cap counts, the extent mprotect has made accessible.
  std::map<uint64_t, uint64_t> MmapCharged;
  // The TLS image set up last, described to a libc's startup code as a
  // PT_TLS program header (musl's static __init_tls builds its own TLS block
  // from it and would otherwise drop the image).
  struct TlsSegment {
    uint64_t vaddr = 0, fileSize = 0, memSize = 0, align = 0;
  } TlsPhdr;
  uint64_t RuntimeBytes = 0; // HeapMapped + every mmap: what the memory cap limits
  std::string ExecFn;        // argv[0] of the last process start: AT_EXECFN, /proc/self/exe
  // Below the last run-main's argv/envp/auxv block, which a started C
  // runtime keeps pointers into (environ, argv, getauxval): later calls'
  // stacks start here.
  uint64_t CallStackTop = Space.stackTop;
  std::vector<uint64_t> AuxVector;  // the last run-main's auxv pairs, AT_NULL included (a debugger's `info auxv`)
  std::set<uint64_t> NotedSyscalls; // numbers already named in a note
  std::vector<uint8_t> Stdin;       // received from the client, not yet read (from StdinPos)
  size_t StdinPos = 0;
  bool StdinEnded = false;                             // a read of the client's stdin found its end
  std::map<uint64_t, std::vector<uint8_t>> SigActions; // signal -> the kernel sigaction last set
  // Signals sent to the process that every thread blocks: the first to
  // unblock one takes it.
  uint64_t SharedPending = 0;
  std::map<int, SigInfo> SharedInfo;
  // The threads by tid; the main thread (tid = pid) is always there. Self
  // runs. Threads other than the main one end with the run.
  std::map<uint64_t, std::unique_ptr<Thread>> Threads;
  Thread *Self = nullptr;
  uint64_t NextTid = 0;
  // Futex wait queues by address, in the order the threads began to wait.
  std::map<uint64_t, std::deque<Thread *>> FutexQueues;
  uint64_t RandomState = 0x6c696e6b6c616221; // getrandom's generator: reproducible runs
  int64_t CpuStartNs = 0; // the emulating thread's CPU time at creation: the process's CPU clocks count from it
  // semihosting handle -> stream (0 stdin, 1 stdout, 2 stderr, 3 the
  // ":semihosting-features" file)
  std::map<uint64_t, uint64_t> SemiHandles;
  uint64_t SemiFeaturesPos = 0; // read position in ":semihosting-features

  RunState *Cur = nullptr;
  std::unique_ptr<Debugger> Debug;
  // The process's files and descriptors; their bytes count against the
  // memory cap as mappings do (a write past it: ENOSPC, not the end of the run).
  GuestFs Fs{[this](int64_t Delta) {
               return Delta > 0 ? chargeMemory(uint64_t(Delta)) : (RuntimeBytes -= uint64_t(-Delta), true);
             },
             [] {
               timespec T;
               ::clock_gettime(CLOCK_REALTIME, &T);
               return int64_t(T.tv_sec) * 1000000000 + T.tv_nsec;
             }};
};

} // namespace linklab::emu
