#include "session.h"

#include "process.h"
#include "sandbox.h"

#include "protocol/native_transport.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <optional>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <utility>

namespace linklab::emu {

using namespace executor;

namespace {

using Clock = std::chrono::steady_clock;
constexpr uint32_t DefaultDebugIdleMillis = 600000; // how long a debugged run waits at a stop (PROTOCOL.md)

template <class... Fs> struct Overloaded : Fs... { using Fs::operator()...; };
template <class... Fs> Overloaded(Fs...) -> Overloaded<Fs...>;

class Session {
public:
  Session(int In, int Out, const SessionOptions &O)
      : In(In), Out(Out), GdbFd(O.gdbListenFd), Gdb(O.gdbListenFd >= 0), Journaling(Gdb), Opts(O) {}

  int serve() {
    int Code = serveFrames();
    flush();
    return Code;
  }

private:
  // Replies are buffered while more requests are already here and go out
  // together before the session waits for input again (or runs a program,
  // or once large): a client sends the link's write requests in
  // bursts, and a reply each would cost a system call and a wake-up each.
  int serveFrames() {
    uint8_t Buf[1 << 16];
    for (;;) {
      for (;;) {
        // Requests read while a program waited for stdin come first.
        std::optional<Frame> Next;
        if (!Deferred.empty()) {
          Next = std::move(Deferred.front());
          Deferred.pop_front();
        } else {
          auto F = Reader.next();
          if (!F)
            return fail(F.takeError().message());
          if (!*F)
            break;
          Next = std::move(**F);
        }
        if (!handle(*Next) || Broken)
          return Broken ? 1 : (HungUp ? 0 : 1);
      }
      Fed = false;
      flush();
      if (Broken)
        return 1;
      if (Fed)
        continue; // requests came in while the replies went out
      ssize_t N = ::read(In, Buf, sizeof(Buf));
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0) {
        // End of input inside a frame is a truncated message.
        if (Reader.buffered())
          return fail(formatv("connection closed inside a message (%zu bytes pending)", Reader.buffered()));
        return 0;
      }
      Reader.feed({Buf, size_t(N)});
    }
  }

  // Past FlushAt bytes the outbox goes out now; during a run, only until
  // the run's Deadline (a client that stops reading must not hold the
  // executor past its run's limits).
  void send(uint32_t Seq, const Message &M, Clock::time_point Deadline = Clock::time_point::max()) {
    if (Replaying) { // nothing goes out; a failure ends the replay
      if (auto *F = std::get_if<FailureMsg>(&M); F && ReplayFailure.empty())
        ReplayFailure = F->message;
      return;
    }
    if (auto *F = std::get_if<FailureMsg>(&M)) {
      ++Failures;
      if (Seq)
        LastFailure = {Seq, F->message};
    }
    std::vector<uint8_t> Bytes = encode(Seq, M);
    Outbox.insert(Outbox.end(), Bytes.begin(), Bytes.end());
    if (Outbox.size() >= FlushAt)
      flush(Deadline);
  }
  // Requests arriving meanwhile are kept in the reader (served next).
  // During a run, a client that stops reading holds the program only until
  // the run's wall-time limit (Deadline): what is unsent then waits in the
  // outbox while the watchdog ends the run, and goes after it.
  // Returns false if Deadline came first.
  bool flush(Clock::time_point Deadline = Clock::time_point::max()) {
    if (Outbox.empty() || Broken)
      return Outbox.clear(), true;
    size_t TimedOutAfter = SIZE_MAX;
    Error E = writeDraining(
        Out, In, Outbox, [this](std::span<const uint8_t> B) { Reader.feed(B), Fed = true; }, InClosed, Deadline,
        &TimedOutAfter);
    if (E && TimedOutAfter != SIZE_MAX) {
      consumeError(std::move(E));
      Outbox.erase(Outbox.begin(), Outbox.begin() + ptrdiff_t(TimedOutAfter));
      return false;
    }
    if (E) {
      consumeError(std::move(E));
      Broken = true; // the peer is gone; nothing left to tell it
    }
    Outbox.clear();
    return true;
  }
  // A run's result goes out; a client that reads none of it within the
  // run's wall time and 5 s (its own CLI waits as long for a silent
  // executor) is given up on: the session ends, and so the executor's life
  // is bounded by its run's limits, whoever reads.
  void finishRun(uint32_t Seq, RunResultMsg R, Clock::duration Wall) {
    Clock::time_point Deadline = Clock::now() + Wall + std::chrono::seconds(5);
    send(Seq, R, Deadline);
    if (!flush(Deadline))
      Broken = true;
  }
  // A run's output, up to the session's cap.
  void output(uint32_t Seq, Stream S, std::span<const uint8_t> Bytes, Clock::time_point Deadline) {
    if (Opts.outputCap && RunOutput + Bytes.size() > Opts.outputCap) {
      Bytes = Bytes.first(size_t(Opts.outputCap - std::min(RunOutput, Opts.outputCap)));
      if (!Truncated) {
        Truncated = true;
        if (!Bytes.empty())
          send(Seq, OutputMsg{uint8_t(S), std::vector<uint8_t>(Bytes.begin(), Bytes.end())}, Deadline);
        std::string Note = formatv("\nlinklab: output truncated at %llu bytes (the executor's output cap)\n",
                                   (unsigned long long)Opts.outputCap);
        send(Seq, OutputMsg{uint8_t(Stream::Stderr), std::vector<uint8_t>(Note.begin(), Note.end())}, Deadline);
        flush(Deadline);
      }
      RunOutput = Opts.outputCap;
      return;
    }
    RunOutput += Bytes.size();
    send(Seq, OutputMsg{uint8_t(S), std::vector<uint8_t>(Bytes.begin(), Bytes.end())}, Deadline);
    flush(Deadline);
  }
  static Clock::duration wallTime(const Limits &L) { return std::chrono::milliseconds(L.wall()); }
  // When a run that starts now reaches its wall-time limit.
  Clock::time_point runDeadline(const Limits &L) {
    RunOutput = 0, Truncated = false;
    return Clock::now() + wallTime(L);
  }
  // Waits (until Deadline) for a frame Wanted takes; other requests
  // arriving meanwhile wait their turn (Deferred). nullopt when Deadline
  // came first, or the client hung up (InClosed) or broke the protocol
  // (Broken, told why).
  // WakeFd (>= 0) readable ends the wait too (Woken).
  template <class Pick>
  std::optional<Frame> awaitFrame(Clock::time_point Deadline, Pick Wanted, int WakeFd = -1, bool *Woken = nullptr) {
    uint8_t Buf[1 << 16];
    while (!Broken) {
      for (;;) { // what came before the client hung up counts
        auto F = Reader.next();
        if (!F) {
          fail(F.takeError().message());
          flush();
          Broken = true;
          return std::nullopt;
        }
        if (!*F)
          break;
        if (Wanted(**F))
          return std::move(**F);
        Deferred.push_back(std::move(**F));
      }
      if (InClosed)
        break;
      auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(Deadline - Clock::now());
      pollfd P[2] = {{In, POLLIN, 0}, {WakeFd, POLLIN, 0}};
      int R =
          Left.count() > 0 ? ::poll(P, WakeFd >= 0 ? 2 : 1, int(std::min<int64_t>(Left.count() + 1, INT32_MAX))) : 0;
      if (R < 0 && errno == EINTR)
        continue;
      if (R > 0 && WakeFd >= 0 && P[1].revents && !P[0].revents) {
        if (Woken)
          *Woken = true;
        return std::nullopt;
      }
      if (R == 0)
        return std::nullopt;
      ssize_t N = ::read(In, Buf, sizeof(Buf));
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        InClosed = true;
      else
        Reader.feed({Buf, size_t(N)});
    }
    return std::nullopt;
  }
  // The program reads stdin: ask the client for up to Max bytes under the
  // run's seq and wait (until Deadline) for its input message; other
  // requests arriving meanwhile wait their turn. A session gone or broken
  // gives end of file.
  // A wait WakeFd ended keeps its request: the next wait takes its answer.
  std::optional<std::vector<uint8_t>> input(uint32_t Seq, uint64_t Max, Clock::time_point Deadline, int WakeFd) {
    if (!InputAsked) {
      send(Seq, InputRequestMsg{uint32_t(Max)});
      flush(Deadline);
      InputAsked = true;
    }
    bool Woken = false;
    auto F = awaitFrame(
        Deadline, [](Frame &F) { return std::holds_alternative<InputMsg>(F.message); }, WakeFd, &Woken);
    InputAsked = Woken;
    if (F)
      return std::move(std::get<InputMsg>(F->message).bytes);
    if (Broken || InClosed)
      return std::vector<uint8_t>();
    return std::nullopt;
  }
  // A debugged run stopped: the client hears of it (M under the run's seq)
  // and answers with one debug-resume (until Deadline). A debug-resume of
  // another request is refused; an input message is late (dropped).
  std::optional<DebugResumeMsg> debugStop(uint32_t Seq, const DebugStopMsg &M, Clock::time_point Deadline) {
    send(Seq, M);
    flush(Deadline);
    auto F = awaitFrame(Deadline, [&](Frame &F) {
      if (std::holds_alternative<InputMsg>(F.message))
        return false; // served (dropped) after the run, as late input is
      if (!std::holds_alternative<DebugResumeMsg>(F.message))
        return false;
      if (F.seq == Seq)
        return true;
      send(F.seq, FailureMsg{formatv("debug-resume for request %u: the run stopped is request %u", F.seq, Seq)});
      flush(Deadline);
      F.message = InputMsg{}; // answered: dropped when served
      return false;
    });
    if (!F)
      return std::nullopt;
    return std::move(std::get<DebugResumeMsg>(F->message));
  }
  // The protocol's client decides at a debugged run's stops (gdb_target.h).
  class ClientDebug : public DebugFrontEnd {
  public:
    ClientDebug(Session &S, uint32_t Seq, uint32_t IdleMillis, std::vector<MemoryRange> EhFrames)
        : S(S), Seq(Seq), Idle(std::chrono::milliseconds(IdleMillis ? IdleMillis : DefaultDebugIdleMillis)),
          EhFrames(std::move(EhFrames)) {}
    gdb::Resume stopped(Debugger &D, const gdb::Stop &St) override {
      DebugStopMsg M = D.describeStop(St, EhFrames);
      for (;;) {
        auto R = S.debugStop(Seq, M, Clock::now() + Idle);
        if (!R) {
          Why = S.Broken || S.InClosed
                    ? "killed: the client went away while the program was stopped"
                    : formatv("killed: no debug-resume came within %lld ms of a stop",
                              (long long)std::chrono::duration_cast<std::chrono::milliseconds>(Idle).count());
          return {gdb::Resume::Kill};
        }
        // Anything else keeps it stopped where it is, saying why.
        auto Refuse = [&](std::string Message) {
          M.reason = uint8_t(StopReason::Refused), M.message = "debug-resume: " + std::move(Message);
          M.memory.clear();
        };
        if (R->breakpoints.size() > MaxDebugBreakpoints) {
          Refuse(formatv("%zu breakpoints, at most %u", R->breakpoints.size(), MaxDebugBreakpoints));
          continue;
        }
        switch (DebugAction(R->action)) {
        case DebugAction::Continue:
        case DebugAction::Step:
        case DebugAction::StepOver:
          D.setBreakpoints(R->breakpoints);
          return {R->action == uint8_t(DebugAction::Continue) ? gdb::Resume::Continue
                  : R->action == uint8_t(DebugAction::Step)   ? gdb::Resume::Step
                                                              : gdb::Resume::StepOver};
        case DebugAction::Kill: Why = "killed by the debugger"; return {gdb::Resume::Kill};
        case DebugAction::Read: {
          if (R->size == 0 || R->size > MaxDebugRead) {
            Refuse(formatv("cannot read %u bytes at once (1 to %u)", R->size, MaxDebugRead));
            continue;
          }
          auto B = D.readMemory(R->address, R->size);
          if (!B) {
            Refuse(formatv("cannot read %u bytes at %s: not mapped", R->size, hex(R->address).c_str()));
            continue;
          }
          M.reason = uint8_t(StopReason::Memory), M.address = R->address, M.message.clear();
          M.memory.assign(B->begin(), B->end());
          continue;
        }
        default:
          Refuse(formatv("unknown action %u (0 continue, 1 step, 2 step over, 3 read, 4 kill)", R->action));
          continue;
        }
      }
    }
    // A client that hung up may have sent its answers before it did.
    bool open() const override { return !S.Broken; }
    std::string killMessage() const override { return Why; }

  private:
    Session &S;
    uint32_t Seq;
    Clock::duration Idle;
    std::vector<MemoryRange> EhFrames;
    std::string Why = "killed by the debugger";
  };
  int fail(const std::string &Why) {
    send(0, FailureMsg{"executor session closed: " + Why});
    return 1;
  }
  void reply(uint32_t Seq, Error E) {
    if (E)
      send(Seq, FailureMsg{E.message()});
    else
      send(Seq, OkMsg{});
  }

  // The next descriptor on the files channel, or -1 (none sent, or no
  // channel). Only a descriptor: anything else in the message is dropped.
  int takeDescriptor() {
    if (Opts.filesFd < 0)
      return -1;
    char Byte;
    iovec V = {&Byte, 1};
    alignas(cmsghdr) char Control[CMSG_SPACE(sizeof(int))];
    msghdr H = {};
    H.msg_iov = &V, H.msg_iovlen = 1;
    H.msg_control = Control, H.msg_controllen = sizeof Control;
    // Sent before the frame: it is there now or was never sent.
    ssize_t N;
    do
      N = recvmsg(Opts.filesFd, &H, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    while (N < 0 && errno == EINTR);
    if (N < 0)
      return -1;
    // A control buffer of one descriptor: the kernel passes no more (more
    // sent are closed, MSG_CTRUNC).
    cmsghdr *C = CMSG_FIRSTHDR(&H);
    if (!C || C->cmsg_level != SOL_SOCKET || C->cmsg_type != SCM_RIGHTS || C->cmsg_len != CMSG_LEN(sizeof(int)))
      return -1;
    int Fd;
    std::memcpy(&Fd, CMSG_DATA(C), sizeof Fd);
    return Fd;
  }
  // A map-file request with its descriptor: the client's bytes, checked as
  // hostile (a regular file, read only from, every range inside it).
  Error mapFile(int Fd, const MapFileMsg &M) {
    if (Fd < 0)
      return makeError(Opts.filesFd < 0 ? "this session has no descriptor channel (files-fd)"
                                        : "no descriptor came on the files channel");
    if (Gdb) // gdb's `run` rebuilds the process from its requests, and the descriptor is gone by then
      return makeError("not in a session gdb debugs");
    struct stat St;
    if (syscall(SYS_fstat, Fd, &St)) // the fstat system call, not glibc's newfstatat (a path)
      return makeError(formatv("fstat: %s", std::strerror(errno)));
    if (!S_ISREG(St.st_mode))
      return makeError("the descriptor is not a regular file");
    return P->mapFile(Fd, uint64_t(St.st_size), M.segments);
  }

  // A process built again from the journal (the requests that built P, as
  // they succeeded), for gdb's `run` once the program's run has ended.
  Expected<std::unique_ptr<Process>> rebuild() {
    std::unique_ptr<Process> Old = std::move(P);
    Replaying = true;
    ReplayFailure.clear();
    for (size_t I = 0; I < Journal.size() && ReplayFailure.empty(); ++I) {
      Frame F = Journal[I]; // handlers may move from it
      if (!handle(F) && ReplayFailure.empty())
        ReplayFailure = formatv("request %u ended the session", F.seq);
    }
    Replaying = false;
    std::unique_ptr<Process> Fresh = std::exchange(P, std::move(Old));
    if (!ReplayFailure.empty() || !Fresh)
      return makeError("the program cannot start again: " + (ReplayFailure.empty() ? "no set-up" : ReplayFailure));
    return Fresh;
  }

  // False ends the session.
  bool handle(Frame &F) {
    // gdb's sessions keep the requests that build the process, up to its
    // run-main, those that succeed (none of the read-only ones).
    if (Journaling && !Replaying && !std::holds_alternative<RunMainMsg>(F.message) &&
        !std::holds_alternative<LookupMsg>(F.message) && !std::holds_alternative<ReadMemoryMsg>(F.message) &&
        !std::holds_alternative<HangupMsg>(F.message)) {
      Frame Copy = F;
      uint64_t Before = Failures;
      bool Go = serve(F);
      if (Failures == Before)
        Journal.push_back(std::move(Copy));
      return Go;
    }
    return serve(F);
  }
  bool serve(Frame &F) {
    uint32_t Seq = F.seq;
    if (std::holds_alternative<InputMsg>(F.message))
      return true; // late: the read it answered has ended (a time limit); no reply
    if (std::holds_alternative<DebugResumeMsg>(F.message)) {
      // Late (its run ended meanwhile: an idle stop), or for no debugged run at all.
      if (F.seq != LastDebugSeq)
        send(F.seq,
             FailureMsg{formatv("debug-resume for request %u: no debugged run of that request is stopped", F.seq)});
      return true;
    }
    // Its descriptor came before it, whatever becomes of the request.
    int MapFd = std::holds_alternative<MapFileMsg>(F.message) ? takeDescriptor() : -1;
    struct Closer {
      int Fd;
      ~Closer() {
        if (Fd >= 0)
          close(Fd);
      }
    } CloseMapFd{MapFd};
    if (!P && !std::holds_alternative<SetupMsg>(F.message) && !std::holds_alternative<HangupMsg>(F.message)) {
      send(Seq, FailureMsg{formatv("%s before setup", messageName(F.message))});
      return true;
    }
    // Program output streams out as the program writes it.
    Clock::time_point Deadline = Clock::time_point::max();
    auto Output = [this, Seq, &Deadline](Stream S, std::span<const uint8_t> Bytes) { output(Seq, S, Bytes, Deadline); };
    auto Input = [this, Seq](uint64_t Max, std::chrono::steady_clock::time_point Deadline, int WakeFd) {
      return input(Seq, Max, Deadline, WakeFd);
    };
    InputAsked = false; // a request left unanswered by a run that ended is late
    return std::visit(
        Overloaded{
            [&](SetupMsg &M) {
              if (M.version != ProtocolVersion) {
                send(Seq, FailureMsg{formatv("protocol version %u not supported (executor speaks %u)", M.version,
                                             ProtocolVersion)});
                return false;
              }
              if (P) {
                send(Seq, FailureMsg{"session already set up"});
                return true;
              }
              auto NewP = Process::create(Triple::parse(M.triple), Gdb);
              if (!NewP) { // no process yet: the client may set up again
                send(Seq, FailureMsg{NewP.takeError().message()});
                return true;
              }
              sandbox::lockDown(GdbFd,
                                Opts.filesFd); // set up: from here on the protocol (and gdb) is all the process serves
              P = std::move(*NewP);
              if (GdbFd >= 0)
                P->debugWith(std::exchange(GdbFd, -1), In);
              send(Seq, SetupResultMsg{ProtocolVersion, M.triple, layout::PageSize, P->exposedSymbols()});
              return true;
            },
            [&](ReserveMsg &M) {
              auto A = P->reserve(M.size, M.alignment, executor::Region(M.region));
              if (!A)
                send(Seq, FailureMsg{A.takeError().message()});
              else
                send(Seq, AddressMsg{*A});
              return true;
            },
            [&](FinalizeMsg &M) { return reply(Seq, P->finalize(M.segments)), true; },
            [&](MapFileMsg &M) { return reply(Seq, mapFile(MapFd, M)), true; },
            [&](DeallocateMsg &M) {
              // Release everything asked for, reporting every failure at once.
              std::string Problems;
              for (uint64_t A : M.addresses)
                if (Error E = P->deallocate(A))
                  Problems += (Problems.empty() ? "" : "; ") + E.message();
              reply(Seq, Problems.empty() ? Error::success() : makeError(Problems));
              return true;
            },
            [&](LookupMsg &M) {
              LookupResultMsg R;
              for (const std::string &N : M.names)
                R.addresses.push_back(P->lookup(N));
              send(Seq, R);
              return true;
            },
            [&](RunMainMsg &M) {
              if (M.okSince && LastFailure && LastFailure->first >= M.okSince) {
                RunResultMsg R;
                R.status = uint8_t(RunStatus::Error);
                R.message = formatv("not run: request %u failed: %s", LastFailure->first, LastFailure->second.c_str());
                return send(Seq, R), true;
              }
              flush();
              Deadline = runDeadline(M.limits);
              std::unique_ptr<DebugFrontEnd> Front;
              if (M.debug)
                Front = std::make_unique<ClientDebug>(*this, Seq, M.debugIdleMillis, std::move(M.ehFrames)),
                LastDebugSeq = Seq;
              Journaling = false;
              RunResultMsg R = P->runMain(M, Output, Input, std::move(Front));
              // gdb's `run` once it ended: the program again, in a process
              // built as this one was; the last run's result is the one sent.
              while (P->runAgain()) {
                auto Fresh = rebuild();
                if (!Fresh) {
                  if (!P->refuseRun(Fresh.takeError().message()))
                    break;
                  continue;
                }
                (*Fresh)->debugAfter(*P);
                P = std::move(*Fresh);
                Deadline = runDeadline(M.limits);
                R = P->runMain(M, Output, Input);
              }
              return finishRun(Seq, std::move(R), wallTime(M.limits)), true;
            },
            [&](CallMsg &M) {
              flush();
              Deadline = runDeadline(M.limits);
              return finishRun(Seq, P->call(M, Output, Input), wallTime(M.limits)), true;
            },
            [&](ReadMemoryMsg &M) {
              auto B = P->read(M.address, M.size);
              if (!B)
                send(Seq, FailureMsg{B.takeError().message()});
              else
                send(Seq, MemoryMsg{std::move(*B)});
              return true;
            },
            [&](WriteMemoryMsg &M) { return reply(Seq, P->write(M.address, M.bytes)), true; },
            [&](WriteMsg &M) { return reply(Seq, P->write(M.pieces)), true; },
            [&](SetupTLSMsg &M) {
              auto R = P->setupTLS(M);
              if (!R)
                send(Seq, FailureMsg{R.takeError().message()});
              else
                send(Seq, *R);
              return true;
            },
            [&](HangupMsg &) {
              send(Seq, OkMsg{});
              HungUp = true;
              return false;
            },
            [&](auto &M) {
              // Executor-to-client messages have no business arriving here.
              fail(formatv("unexpected %s message from the client", messageName(F.message)));
              return false;
            },
        },
        F.message);
  }

  int In, Out;
  int GdbFd;       // until the process takes it
  bool Gdb;        // gdb debugs this session's runs (-gdb)
  bool Journaling; // gdb's session before its run-main: requests go to the Journal
  bool Replaying = false;
  std::vector<Frame> Journal;
  std::string ReplayFailure; // the first failure of a replay
  uint64_t Failures = 0;     // failure replies sent
  // The latest failed request (seq, message): run-main's okSince checks it.
  std::optional<std::pair<uint32_t, std::string>> LastFailure;
  SessionOptions Opts;
  uint64_t RunOutput = 0; // bytes of output the current run has sent
  bool Truncated = false;
  FrameReader Reader;
  std::deque<Frame> Deferred; // requests read while a program waited for stdin
  std::vector<uint8_t> Outbox;
  static constexpr size_t FlushAt = 1 << 20;
  std::unique_ptr<Process> P;
  bool Broken = false, HungUp = false, InClosed = false, Fed = false;
  bool InputAsked = false;   // an input-request is unanswered (a wait ^C ended)
  uint32_t LastDebugSeq = 0; // the last debugged run's request: a debug-resume for it after it ended is late
};

} // namespace

int serveSession(int InFd, int OutFd, const SessionOptions &O) { return Session(InFd, OutFd, O).serve(); }

[[noreturn]] void serveSessionThenExit(int InFd, int OutFd, const SessionOptions &O) {
  Session S(InFd, OutFd, O);
  _exit(S.serve());
}

} // namespace linklab::emu
