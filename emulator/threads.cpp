// The threads of the emulated process: what clone with CLONE_VM |
// CLONE_THREAD makes (glibc's pthread_create). One Unicorn engine runs them
// all, one at a time: the running thread's registers are the engine's, every
// other one's wait in a uc_context. A thread runs until it waits (a futex, a
// sleep, a signal), yields, exits, or has run SliceBlocks translated blocks,
// counted by a block hook that exists only once the process has a second
// thread (a single-threaded program pays nothing); the run loop then
// switches to the next runnable thread in tid order. Nothing but the
// program decides when a thread runs, so runs repeat exactly.
//
// System calls that wait (futex, nanosleep, pause...) mark the thread
// waiting and stop the engine; the run loop switches threads outside any
// hook (Process::switchThread). When no thread can run, the executor sleeps
// until the first timed wait ends, or, with none, reports the deadlock.
#include "process.h"

#include <algorithm>
#include <cerrno>
#include <thread>

namespace linklab::emu {

using namespace executor;
using Clock = std::chrono::steady_clock;

namespace {
// About a millisecond of emulated code: long enough that switching costs
// nothing measurable, short enough that a spin-wait's partner soon runs.
constexpr uint64_t SliceBlocks = 1 << 16;
} // namespace

size_t Process::liveThreads() const {
  return size_t(
      std::count_if(Threads.begin(), Threads.end(), [](auto &T) { return T.second->state != Thread::State::Exited; }));
}

Process::Thread *Process::findThread(uint64_t Tid) {
  auto It = Threads.find(Tid);
  return It != Threads.end() && It->second->state != Thread::State::Exited ? It->second.get() : nullptr;
}

std::string Process::threadTag() const {
  return Threads.size() > 1 || Self->tid != Pid ? formatv(" in thread %llu", (unsigned long long)Self->tid) : "";
}

int64_t Process::wait(std::string What, bool ForSignal, std::optional<Clock::time_point> Until, int64_t AtTimeout) {
  if (pendingFor(*Self) & ~Self->SigMask)
    return -EINTR; // delivered as the call returns
  Thread &T = *Self;
  T.state = Thread::State::Waiting;
  T.waitingIn = std::move(What);
  T.waitsForSignal = ForSignal;
  T.wakeAt = Until;
  T.timeoutResult = AtTimeout;
  T.answer.reset();
  T.remain = 0;
  Cur->switchDue = true;
  uc_emu_stop(UC);
  return -EINTR; // replaced by the answer when it runs again
}

void Process::wake(Thread &T, int64_t Answer) {
  if (auto Q = FutexQueues.find(T.futexAddr); T.futexAddr && Q != FutexQueues.end()) {
    std::erase(Q->second, &T);
    if (Q->second.empty())
      FutexQueues.erase(Q);
  }
  if (Answer == -EINTR && T.remain && T.wakeAt) { // a sleep cut short: the time left
    int64_t Ns =
        std::max<int64_t>(0, std::chrono::duration_cast<std::chrono::nanoseconds>(*T.wakeAt - Clock::now()).count());
    uint8_t Left[16];
    storeGuest(Left, uint64_t(Ns / 1000000000), T.remainSize);
    storeGuest(Left + T.remainSize, uint64_t(Ns % 1000000000), T.remainSize);
    consumeError(write(T.remain, {Left, 2 * size_t(T.remainSize)}));
  }
  T.remain = 0;
  T.futexAddr = 0;
  T.wakeAt.reset();
  T.state = Thread::State::Runnable;
  T.answer = Answer;
}

uint64_t Process::futexWake(uint64_t Addr, uint64_t N, uint32_t Bitset) {
  auto Q = FutexQueues.find(Addr);
  if (Q == FutexQueues.end())
    return 0;
  std::vector<Thread *> Woken;
  for (Thread *T : Q->second)
    if (Woken.size() < N && (T->bitset & Bitset))
      Woken.push_back(T);
  for (Thread *T : Woken)
    wake(*T, 0);
  return Woken.size();
}

uint64_t Process::futexRequeue(uint64_t Addr, uint64_t To, uint64_t N) {
  auto Q = FutexQueues.find(Addr);
  uint64_t Moved = 0;
  for (; Q != FutexQueues.end() && Moved < N && !Q->second.empty() && Addr != To; ++Moved) {
    Thread *T = Q->second.front();
    Q->second.pop_front();
    T->futexAddr = To;
    FutexQueues[To].push_back(T);
  }
  if (Q != FutexQueues.end() && Q->second.empty())
    FutexQueues.erase(Q);
  return Moved;
}

// As Linux's exit_robust_list: each robust mutex on the dying thread's
// list (struct robust_list_head {next, futex_offset, list_op_pending}, of
// words) that it still owns is marked FUTEX_OWNER_DIED, and a waiter woken,
// so that the next locker gets EOWNERDEAD.
void Process::releaseRobustList() {
  constexpr uint32_t Waiters = 0x80000000, OwnerDied = 0x40000000, TidMask = 0x3fffffff;
  constexpr unsigned Limit = 2048; // ROBUST_LIST_LIMIT: a list that loops
  const unsigned W = A.wordSize;
  auto Word = [&](uint64_t At, unsigned N) -> std::optional<uint64_t> {
    uint8_t B[8];
    if (uc_mem_read(UC, At, B, N) != UC_ERR_OK)
      return std::nullopt;
    return loadGuest(B, N);
  };
  auto Release = [&](uint64_t Entry, int64_t Offset) {
    uint64_t At = (Entry & ~uint64_t(1)) + uint64_t(Offset); // bit 0: a PI mutex
    auto V = Word(At, 4);
    if (!V || (*V & TidMask) != Self->tid)
      return;
    uint8_t B[4];
    storeGuest(B, (*V & Waiters) | OwnerDied, 4);
    if (!Stores.write(At, B, 4) && (*V & Waiters))
      futexWake(At, 1);
  };
  uint64_t Head = Self->robustList;
  auto Next = Word(Head, W), Off = Word(Head + W, W), Pending = Word(Head + 2 * W, W);
  if (!Head || !Next || !Off || !Pending)
    return;
  int64_t Offset = W == 4 ? int64_t(int32_t(*Off)) : int64_t(*Off);
  for (unsigned N = 0; *Next != Head && N < Limit; ++N) {
    uint64_t Entry = *Next;
    if (!(Next = Word(Entry & ~uint64_t(1), W)))
      break;
    if (Entry != *Pending)
      Release(Entry, Offset);
  }
  if (*Pending)
    Release(*Pending, Offset);
}

void Process::exitThread() {
  releaseRobustList();
  // CLONE_CHILD_CLEARTID: pthread_join waits on this word.
  if (uint64_t At = Self->clearChildTid) {
    uint8_t Zero[4] = {};
    if (!Stores.write(At, Zero, 4))
      futexWake(At, 1);
  }
  Self->state = Thread::State::Exited;
  Cur->switchDue = true;
  uc_emu_stop(UC);
}

void Process::yield() {
  Cur->switchDue = true;
  uc_emu_stop(UC);
}

void Process::onBlock(uc_engine *UC, uint64_t, uint32_t, void *User) {
  auto *P = static_cast<Process *>(User);
  if (++P->Cur->sliceBlocks >= SliceBlocks)
    P->yield();
}

// Saves the engine's registers as T's.
static bool saveContext(uc_engine *UC, uc_context *&Ctx) {
  return (Ctx || uc_context_alloc(UC, &Ctx) == UC_ERR_OK) && uc_context_save(UC, Ctx) == UC_ERR_OK;
}

void Process::startThread(uint64_t Pc) {
  Thread &C = *std::exchange(Cur->cloned, nullptr);
  // The parent's registers, but a return value of 0 and the new stack
  // pointer and thread pointer.
  bool Saved = saveContext(UC, Self->ctx);
  setReg(A.ret, 0);
  if (C.stack)
    setReg(A.sp, C.stack);
  Error E = C.tls ? setThreadPointer(*C.tls, C.tlsEntry) : Error::success();
  bool Made = !E && saveContext(UC, C.ctx);
  if (Saved)
    uc_context_restore(UC, Self->ctx);
  if (!Saved || !Made)
    return stop(RunStatus::Error, 0,
                formatv("cannot create thread %llu: %s", (unsigned long long)C.tid,
                        E ? E.message().c_str() : "no memory for its registers"));
  C.pc = Pc;
  // From now on, time slices.
  if (!Cur->sliceHook) {
    if (uc_hook_add(UC, &Cur->sliceHook, UC_HOOK_BLOCK, (void *)onBlock, this, 1, 0) == UC_ERR_OK)
      Stores.dropAllTranslations();
    else
      stop(RunStatus::Error, 0, "cannot install the thread scheduler's block counter");
  }
}

// What a guest thread costs the host, as its kernel stack and task count
// against a process's memory on Linux: its record and its saved registers.
uint64_t Process::threadCost() const { return sizeof(Thread) + uc_context_size(UC); }

void Process::freeThread(Thread &T) {
  for (auto &[Frame, Ctx] : T.SigFrames)
    uc_context_free(Ctx);
  T.SigFrames.clear();
  if (T.ctx)
    uc_context_free(T.ctx);
  T.ctx = nullptr;
  if (T.charged > sizeof(Thread)) // the registers are gone; the record stays until the run ends
    RuntimeBytes -= T.charged - sizeof(Thread), T.charged = sizeof(Thread);
}

uint64_t Process::switchThread(uint64_t Pc) {
  Cur->switchDue = false;
  Cur->sliceBlocks = 0;
  Thread *From = Self, *Next = nullptr;
  From->pc = Pc;
  while (!Next) {
    auto Now = Clock::now();
    std::optional<Clock::time_point> First; // the first timed wait to end
    Thread *Sleeper = nullptr;
    for (auto &[Tid, T] : Threads)
      if (T->state == Thread::State::Waiting && T->wakeAt) {
        if (*T->wakeAt <= Now)
          wake(*T, T->timeoutResult);
        else if (!First || *T->wakeAt < *First)
          First = T->wakeAt, Sleeper = T.get();
      }
    // The next in tid order after From, From last.
    auto It = Threads.upper_bound(From->tid);
    for (size_t I = 0; I < Threads.size() && !Next; ++I, ++It) {
      if (It == Threads.end())
        It = Threads.begin();
      if (It->second->state == Thread::State::Runnable)
        Next = It->second.get();
    }
    if (Next)
      break;
    if (!First) {
      std::string Report;
      size_t Live = liveThreads();
      for (auto &[Tid, T] : Threads)
        if (T->state == Thread::State::Waiting)
          Report += Live == 1
                        ? T->waitingIn +
                              (T->waitsForSignal ? " waits for a signal nothing can send" : " can never be woken") +
                              " (the process has one thread)"
                        : formatv("%s thread %llu in %s", Report.empty() ? "" : ",", (unsigned long long)Tid,
                                  T->waitingIn.c_str());
      stop(RunStatus::Error, 0, (Live == 1 ? "deadlock: " : "deadlock: every thread waits:") + Report);
      return Pc;
    }
    if (*First >= Cur->deadline) {
      std::this_thread::sleep_until(Cur->deadline);
      Next = Sleeper; // the report names it, at its PC
      break;
    }
    std::this_thread::sleep_until(*First);
  }
  if (Next != From) {
    if (From->state == Thread::State::Exited ? (freeThread(*From), false) : !saveContext(UC, From->ctx)) {
      stop(RunStatus::Error, 0, "cannot save a thread's registers");
      return Pc;
    }
    uc_context_restore(UC, Next->ctx);
    Self = Next;
  }
  if (Next->state == Thread::State::Waiting) {
    stop(RunStatus::TimeLimit, 0,
         formatv("wall-time limit of %u ms reached in %s", Cur->wallMs, Next->waitingIn.c_str()));
    return Next->pc;
  }
  if (Next->sigwaitSet)
    finishSigwait(*Next);
  if (Next->answer)
    setReg(A.ret, uint64_t(*std::exchange(Next->answer, std::nullopt)));
  // Threads that exited are gone (the main one stays: its tid is the pid).
  std::erase_if(Threads, [&](auto &T) {
    return T.second->state == Thread::State::Exited && T.first != Pid && T.second.get() != Self;
  });
  Pc = Next->pc;
  if (pendingFor(*Self) & ~Self->SigMask)
    Pc = handleSignals(Pc);
  return Pc;
}

void Process::finishSigwait(Thread &T) {
  T.SigMask = T.sigwaitMask;
  SigInfo I;
  if (int Sig = takeSignal(T, std::exchange(T.sigwaitSet, 0), I)) {
    uint8_t Info[128] = {};
    putSigInfo(Info, I);
    if (T.sigwaitInfo)
      consumeError(write(T.sigwaitInfo, Info));
    T.answer = Sig;
  }
}

void Process::endThreads() {
  Thread &Main = mainThread();
  if (Self != &Main && Main.ctx)
    uc_context_restore(UC, Main.ctx);
  for (auto &[Tid, T] : Threads)
    if (T.get() != &Main) {
      freeThread(*T);
      RuntimeBytes -= T->charged;
    }
  std::erase_if(Threads, [&](auto &T) { return T.second.get() != &Main; });
  // A wait the run's end cut short takes no signal; its mask comes back.
  if (Main.sigwaitSet)
    Main.SigMask = Main.sigwaitMask, Main.sigwaitSet = 0;
  Main.state = Thread::State::Runnable;
  Main.futexAddr = 0;
  Main.wakeAt.reset();
  Main.answer.reset();
  Self = &Main;
  FutexQueues.clear();
}

Process::~Process() {
  for (auto &[Tid, T] : Threads)
    freeThread(*T);
  Debug.reset(); // its hook and context belong to the engine
  uc_close(UC);
}

} // namespace linklab::emu
