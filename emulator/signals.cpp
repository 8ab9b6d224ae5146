// Signal delivery in the emulated process, to each thread as Linux does
// it (kernel/signal.c; arch/*/kernel/signal*.c for the frames): a signal
// the process sends itself, or a fault it has a handler for, is delivered
// between two instructions by pushing an rt_sigframe (siginfo and
// ucontext, at the offsets of the arch's SignalFrame row) on the stack and
// entering the handler with the signal masked; the handler returns through
// sa_restorer (glibc sets SA_RESTORER on x86 and Arm) or the executor's
// trampoline at layout::SigReturn (where Linux uses its vDSO), which calls
// rt_sigreturn.
//
// Delivery happens in the run loop, between two uc_emu_start calls: a
// system call or a fault only records the work and stops the engine, so
// registers are read and written outside any hook. The interrupted context
// is kept whole executor-side (uc_context, keyed by the frame's address):
// rt_sigreturn restores it, FP/SIMD state included, then takes the general
// registers, the PC and the mask from the guest frame, where a handler may
// have changed them (skipping a faulting instruction, say).
#include "process.h"

#include <unicorn/arm.h>

#include <bit>
#include <cstring>

namespace linklab::emu {

using namespace executor;

namespace {

// include/uapi/asm-generic/signal-defs.h, the same on every arch here.
constexpr uint64_t SaSiginfo = 4, SaRestorer = 0x04000000, SaOnstack = 0x08000000, SaNodefer = 0x40000000,
                   SaResethand = 0x80000000;
constexpr uint64_t SigDfl = 0, SigIgn = 1;
constexpr int SigKill = 9, SigSegv = 11, SigStop = 19;
constexpr uint64_t bit(int Sig) { return 1ull << (Sig - 1); }
constexpr uint64_t Unblockable = bit(SigKill) | bit(SigStop);
constexpr uint64_t Pid = 1000, Uid = 1000; // as getpid() and getuid() answer
// Deeper than this, nested handlers are a runaway (a handler raising its
// own SA_NODEFER signal): each keeps a saved context.
constexpr size_t MaxNestedFrames = 1024;

// SIGCHLD, SIGCONT, SIGURG, SIGWINCH: ignored by default.
bool ignoredByDefault(int Sig) { return Sig == 17 || Sig == 18 || Sig == 23 || Sig == 28; }

std::string signalText(int Sig) {
  const char *Name = signalName(Sig);
  return Name ? Name : formatv("signal %d", Sig);
}

} // namespace

Process::Action Process::action(int Sig) const {
  auto It = SigActions.find(uint64_t(Sig));
  if (It == SigActions.end())
    return {SigDfl, 0, 0, 0};
  // The kernel's struct sigaction: handler, flags, [restorer,] mask (8 bytes).
  const uint8_t *B = It->second.data();
  const unsigned W = A.wordSize;
  bool HasRestorer = A.sigactionSize == 3 * W + 8;
  return {loadGuest(B, W), loadGuest(B + W, W), HasRestorer ? loadGuest(B + 2 * W, W) : 0,
          loadGuest(B + A.sigactionSize - 8, 8)};
}

void Process::raise(int Sig, int Code, Thread *To) {
  // A signal sent to the process goes to a thread that does not block it,
  // the running one first (Linux's complete_signal); while every thread
  // blocks it, it waits for the first one that unblocks it.
  if (!To && !(Self->SigMask & bit(Sig)))
    To = Self;
  for (auto It = Threads.begin(); !To && It != Threads.end(); ++It)
    if (It->second->state != Thread::State::Exited && !(It->second->SigMask & bit(Sig)))
      To = It->second.get();
  if (To && !(To->SigMask & bit(Sig))) {
    Action Act = action(Sig);
    if (Act.handler == SigIgn || (Act.handler == SigDfl && ignoredByDefault(Sig)))
      return;
    if (Act.handler == SigDfl || Sig == SigKill || Sig == SigStop)
      return stop(RunStatus::Signaled, Sig, "killed by " + signalText(Sig));
  }
  // Blocked signals stay pending even when ignored: the action may change
  // before they are unblocked. One instance of each, as for Linux's
  // standard signals.
  (To ? To->SigPending : SharedPending) |= bit(Sig);
  (To ? To->PendingInfo : SharedInfo)[Sig] = {Sig, Code, 0};
  // It interrupts the thread's wait (Linux: -EINTR, or a restart glibc does itself).
  if (To && To != Self && To->state == Thread::State::Waiting && !(To->SigMask & bit(Sig)))
    wake(*To, -EINTR);
}

bool Process::faultSignal(int Sig, int Code, uint64_t Pc, uint64_t Addr) {
  // As Linux's force_sig: a blocked or ignored fault signal kills, which the
  // executor reports as the fault itself.
  uint64_t H = action(Sig).handler;
  if (!Cur || (Self->SigMask & bit(Sig)) || H == SigDfl || H == SigIgn)
    return false;
  Cur->fault = SigInfo{Sig, Code, Addr};
  Cur->faultPc = Pc;
  uc_emu_stop(UC);
  return true;
}

void Process::noteSignalsDue() {
  if (Cur && !Cur->stopped && (pendingFor(*Self) & ~Self->SigMask)) {
    Cur->signalsDue = true;
    uc_emu_stop(UC);
  }
}

uint64_t Process::handleSignals(uint64_t Pc) {
  if (uint8_t Kind = std::exchange(Cur->sigreturnDue, 0); Kind && !sigreturn(Pc, Kind == 2))
    return Pc;
  if (auto F = std::exchange(Cur->fault, std::nullopt); F && !deliver(*F, Pc))
    return Pc;
  Cur->signalsDue = false;
  // Every deliverable signal, lowest first, each frame on top of the last
  // (Linux's exit-to-user loop): the last one's handler runs first.
  SigInfo I;
  while (int Sig = takeSignal(*Self, ~Self->SigMask, I)) {
    Action Act = action(Sig);
    if (Act.handler == SigIgn || (Act.handler == SigDfl && ignoredByDefault(Sig)))
      continue;
    if (Act.handler == SigDfl) {
      stop(RunStatus::Signaled, Sig, "killed by " + signalText(Sig));
      return Pc;
    }
    if (!deliver(I, Pc))
      return Pc;
  }
  return Pc;
}

void Process::dropFrames(uint64_t Lo, uint64_t Hi) {
  for (auto It = Self->SigFrames.lower_bound(Lo); It != Self->SigFrames.end() && It->first < Hi;) {
    uc_context_free(It->second);
    It = Self->SigFrames.erase(It);
  }
}

void Process::putSigInfo(uint8_t *B, const SigInfo &I) const {
  // signo, errno, code, then the union (pointer-aligned).
  const unsigned W = A.wordSize;
  const size_t Union = W == 8 ? 16 : 12;
  storeGuest(B, uint64_t(I.signo), 4), storeGuest(B + 8, uint32_t(I.code), 4);
  if (I.code > 0)
    storeGuest(B + Union, I.addr, W);
  else
    storeGuest(B + Union, Pid, 4), storeGuest(B + Union + 4, Uid, 4);
}

int Process::takeSignal(Thread &T, uint64_t Set, SigInfo &I) {
  uint64_t Own = T.SigPending & Set, Any = (T.SigPending | SharedPending) & Set;
  if (!Any)
    return 0;
  // The thread's own signals before the process's, lowest first.
  int Sig = std::countr_zero(Own ? Own : Any) + 1;
  auto &Pending = Own ? T.SigPending : SharedPending;
  auto &Infos = Own ? T.PendingInfo : SharedInfo;
  Pending &= ~bit(Sig);
  I = Infos[Sig];
  Infos.erase(Sig);
  return Sig;
}

bool Process::deliver(const SigInfo &I, uint64_t &Pc) {
  const SignalFrame &F = A.signalFrame;
  const unsigned W = A.wordSize;
  Action Act = action(I.signo);
  uint64_t Sp = reg(A.sp);
  bool OnAlt = Self->AltStackSize && Sp - Self->AltStackSp < Self->AltStackSize;
  if ((Act.flags & SaOnstack) && Self->AltStackSize && !OnAlt)
    Sp = Self->AltStackSp + Self->AltStackSize;
  // x86 enters a handler as a call leaves it: sp + word 16-byte aligned,
  // the return address (pretcode) at sp.
  const uint64_t Pushed = A.link < 0 ? W : 0;
  uint64_t Frame = ((Sp - F.redZone - F.size + Pushed) & ~uint64_t(15)) - Pushed;
  // Frames below this one belong to handlers left by siglongjmp.
  dropFrames(Frame - layout::StackSize, Frame + 1);
  if (Self->SigFrames.size() >= MaxNestedFrames) {
    stop(RunStatus::Error, 0,
         formatv("%s at pc %s: signal handlers nested %zu deep (a handler that keeps raising signals?)",
                 signalText(I.signo).c_str(), hex(Pc).c_str(), Self->SigFrames.size()));
    return false;
  }
  std::vector<uint8_t> B(F.size);
  auto Put = [&](size_t Off, uint64_t V, unsigned N) { storeGuest(B.data() + Off, V, N); };
  putSigInfo(B.data() + F.info, I);
  // ucontext: uc_flags, uc_link, uc_stack {ss_sp, ss_flags, ss_size}, mcontext, mask.
  constexpr uint64_t SsOnstack = 1, SsDisable = 2;
  Put(F.uc + 2 * W, Self->AltStackSp, W);
  Put(F.uc + 3 * W, Self->AltStackSize ? (OnAlt ? SsOnstack : 0) : SsDisable, 4);
  Put(F.uc + 4 * W, Self->AltStackSize, W);
  const size_t Mc = F.uc + F.mcontext;
  for (const SigReg &R : F.regs)
    Put(Mc + R.offset, R.reg == A.pc ? Pc & ~uint64_t(A.arch == Arch::Arm) : reg(R.reg), W); // Thumb is in cpsr
  if (F.faultAddress >= 0 && I.code > 0)
    Put(Mc + F.faultAddress, I.addr, W);
  Put(F.uc + F.mask, Self->SuspendMask.value_or(Self->SigMask), 8);
  uint64_t Return = (Act.flags & SaRestorer) && Act.restorer ? Act.restorer : layout::SigReturn;
  if (Pushed)
    Put(0, Return, W);
  if (A.args.empty()) // i386: the handler's arguments on the stack too, after pretcode
    Put(W, I.signo, W), Put(2 * W, Frame + F.info, W), Put(3 * W, Frame + F.uc, W);
  if (Error E = write(Frame, B)) {
    consumeError(std::move(E));
    // Linux kills a process whose signal frame cannot be written.
    stop(RunStatus::Signaled, SigSegv,
         formatv("cannot write the signal frame for %s at %s (sp %s): stack overflow?", signalText(I.signo).c_str(),
                 hex(Frame).c_str(), hex(reg(A.sp)).c_str()));
    return false;
  }
  uc_context *Ctx = nullptr;
  if (uc_context_alloc(UC, &Ctx) != UC_ERR_OK || uc_context_save(UC, Ctx) != UC_ERR_OK) {
    if (Ctx)
      uc_context_free(Ctx);
    stop(RunStatus::Error, 0, "cannot save the interrupted context for " + signalText(I.signo));
    return false;
  }
  Self->SigFrames[Frame] = Ctx;
  Self->SuspendMask.reset();
  Self->SigMask = (Self->SigMask | Act.mask | (Act.flags & SaNodefer ? 0 : bit(I.signo))) & ~Unblockable;
  if (Act.flags & SaResethand)
    SigActions.erase(uint64_t(I.signo));
  setReg(A.sp, Frame);
  if (!Pushed)
    setReg(A.link, Return);
  uint64_t Args[] = {uint64_t(I.signo), Frame + F.info, Frame + F.uc};
  for (size_t N = 0; N < F.args.size(); ++N)
    setReg(F.args[N], Args[N]);
  Pc = Act.handler;
  return true;
}

// Every frame here is an rt_sigframe, also for the handlers without
// SA_SIGINFO that 32-bit glibc returns through the old sigreturn.
bool Process::sigreturn(uint64_t &Pc, bool Old) {
  const SignalFrame &F = A.signalFrame;
  const unsigned W = A.wordSize;
  // The frame starts at sp, or on x86 a word below (the handler's `ret`
  // popped pretcode); i386's old restorer pops the signal number as well.
  uint64_t Sp = reg(A.sp), Frame = Sp - (A.link < 0 ? (Old ? 2 : 1) * W : 0);
  auto It = Self->SigFrames.find(Frame);
  auto Bytes = read(Frame, F.size);
  if (It == Self->SigFrames.end() || !Bytes) {
    if (!Bytes)
      consumeError(Bytes.takeError());
    // Linux sends SIGSEGV for a frame it cannot restore.
    stop(RunStatus::Signaled, SigSegv,
         formatv("rt_sigreturn at pc %s: no signal frame at %s (sp %s): called outside a handler, or the stack "
                 "was corrupted",
                 hex(Pc).c_str(), hex(Frame).c_str(), hex(Sp).c_str()));
    return false;
  }
  uc_context_restore(UC, It->second);
  uint64_t Thumb = resumePc() & 1; // Arm: writing the frame's even PC below leaves Thumb state
  dropFrames(Frame - layout::StackSize, Frame + 1);
  const size_t Mc = F.uc + F.mcontext;
  for (const SigReg &R : F.regs)
    if (R.restore)
      setReg(R.reg, loadGuest(Bytes->data() + Mc + R.offset, W));
  Self->SigMask = loadGuest(Bytes->data() + F.uc + F.mask, 8) & ~Unblockable;
  Pc = reg(A.pc) | Thumb;
  if (Thumb)
    setReg(A.pc, Pc); // back in Thumb state, as a signal delivered next must see it
  return true;
}

uint64_t Process::resumePc() {
  // Arm: resuming in Thumb state (CPSR.T, bit 5) is an odd start address.
  return reg(A.pc) | (A.arch == Arch::Arm && (reg(UC_ARM_REG_CPSR) & 0x20));
}

} // namespace linklab::emu
