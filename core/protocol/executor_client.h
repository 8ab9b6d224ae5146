// The linker's side of the executor protocol. Requests answer through
// callbacks, in order of arrival: the caller feeds incoming bytes with feed()
// (the browser from WebSocket events) or lets the *Sync helpers pull them
// from a blocking transport (the CLI over a pipe or TCP).
#pragma once

#include "protocol/address_plan.h"
#include "protocol/protocol.h"

#include <functional>
#include <map>
#include <optional>
#include <string_view>
#include <variant>

namespace linklab::executor {

class ByteTransport {
public:
  virtual ~ByteTransport() = default;
  virtual Error send(std::span<const uint8_t> Bytes) = 0;
  // Sends what send() buffered, for a caller about to do other work before
  // it next waits for bytes.
  virtual Error flush() { return Error::success(); }
  // Blocks until bytes arrive; 0 means the peer closed. Event-driven
  // transports keep this default and deliver through ExecutorClient::feed.
  virtual Expected<size_t> receive(std::span<uint8_t> Buf) {
    return makeError("this transport delivers bytes by events, not on demand");
  }
  // Once a send or a receive found the peer gone (its end of the pipe or
  // socket closed), why, in one wording whichever of the two noticed first;
  // empty while the peer is there.
  virtual std::string peerGone() { return {}; }
  // Whether sendDescriptor can pass a file to the executor (a spawned
  // one's descriptor channel; not a socket to another host, not the web).
  virtual bool carriesDescriptors() const { return false; }
  // Passes a duplicate of Fd for the next map-file request; at once.
  virtual Error sendDescriptor(int Fd) { return makeError("this transport carries no descriptors"); }
};

struct SetupInfo {
  std::string triple;
  uint64_t pageSize = 0;
  std::vector<ExposedSymbol> symbols;
};

// Names an address for fault reports ("main+0x10 in .text of a.o"); empty
// when it knows nothing there.
using Symbolizer = std::function<std::string(uint64_t)>;
using OutputHandler = std::function<void(Stream, std::string_view)>;
// The program's stdin: at most Max bytes, none at end of file. It may block
// (the CLI reads its own stdin, a terminal included).
using InputHandler = std::function<std::vector<uint8_t>(uint32_t Max)>;
// A debugged run stopped (Seq: the run's request): the handler answers
// with debugResume(Seq, ...), at once or later (a button in a page).
using DebugHandler = std::function<void(uint32_t Seq, DebugStopMsg Stop)>;

template <typename T> using Callback = std::function<void(Expected<T>)>;

// What an executor of this build answers a setup for Triple (address_plan.h).
SetupInfo predictedSetup(std::string Triple);
// An error unless Got (an executor's answer) is Predicted.
Error checkSetupAnswer(const SetupInfo &Got, const SetupInfo &Predicted);

class ExecutorClient {
public:
  explicit ExecutorClient(ByteTransport &T) : Transport(T) {}
  ExecutorClient(const ExecutorClient &) = delete;

  // Bytes from the executor. An error means the session is over: every
  // pending request has failed with it, and so will every later one.
  Error feed(std::span<const uint8_t> Bytes);
  // Program output during runs (default: dropped).
  void setOutputHandler(OutputHandler H) { Output = std::move(H); }
  // What runs read from fd 0 (default: nothing, end of file).
  void setInputHandler(InputHandler H) { Input = std::move(H); }
  void setSymbolizer(Symbolizer S) { Symbolize = std::move(S); }
  // Where debug-stops go (default: none; a stop is then answered with kill).
  void setDebugHandler(DebugHandler H) { Debug = std::move(H); }
  // The next run-main is debugged: stopped at its first instruction, each
  // stop waiting at most IdleMillis (0: the executor's default) for the
  // debug handler's answer.
  void debugNextRun(uint32_t IdleMillis) { DebugNext = IdleMillis; }
  // Answers a debug-stop of the run Seq; sent at once.
  Error debugResume(uint32_t Seq, DebugResumeMsg M);
  const std::optional<SetupInfo> &setupInfo() const { return Info; }
  // Sends the requests made so far now, not when the caller next waits.
  void flush();

  // The answer for a request nobody waits for (a link's writes, the TLS
  // block before a run): call it just before making the request. A failure
  // is kept (the first, prefixed with Context) for the next run to report:
  // a run-main then does not start (its okSince names the first such
  // request), and a call is sent only once every answer is in (settle).
  std::function<void(Error)> unchecked(std::string Context = {});
  // Done once every request made so far has answered: the failure an
  // unchecked request kept, if any (reported once).
  void settle(std::function<void(Error)> Done);

  // --- asynchronous requests ------------------------------------------------
  void setup(std::string Triple, Callback<SetupInfo> Done);
  // Sets up without waiting: setup's answer is known (predictedSetup), so
  // setupInfo() has it now and a link can start while the executor does.
  // A failure, or an answer that differs, is the next run's (unchecked).
  void setupUnchecked(std::string Triple);
  void reserve(uint64_t Size, uint64_t Align, Callback<uint64_t> Done);
  // A reservation in region R whose address is known now: the executor
  // places them by protocol/address_plan.h in the order they arrive. Done
  // hears whether it made it there. An error now when the plan has no room.
  Expected<uint64_t> reserveNow(uint64_t Size, uint64_t Align, Region R, std::function<void(Error)> Done);
  // Where the next reservation in R will be.
  uint64_t nextReservation(Region R) const { return Reserved.next[uint8_t(R)]; }
  void finalize(std::vector<SegmentWrite> Segments, std::function<void(Error)> Done);
  // finalize with each segment's content read by the executor from the
  // file Fd (which the caller keeps), when mapsFiles().
  bool mapsFiles() const { return Transport.carriesDescriptors(); }
  void mapFile(int Fd, std::vector<FileSegment> Segments, std::function<void(Error)> Done);
  void deallocate(std::vector<uint64_t> Bases, std::function<void(Error)> Done);
  // Executor-exposed symbols; 0 for names it does not expose.
  void lookup(std::vector<std::string> Names, Callback<std::vector<uint64_t>> Done);
  // EhFrames: the linked image's .eh_frame sections, sent when the run is
  // debugged (its stops' backtraces unwind through them).
  void runMain(uint64_t Entry, std::vector<std::string> Args, Limits L, Callback<RunResultMsg> Done,
               Startup S = Startup::CallMain, std::vector<std::string> Env = {}, std::vector<InputFile> Files = {},
               std::vector<MemoryRange> EhFrames = {});
  void call(CallMsg M, Callback<RunResultMsg> Done);
  void readMemory(uint64_t Addr, uint64_t Size, Callback<std::vector<uint8_t>> Done);
  void writeMemory(uint64_t Addr, std::vector<uint8_t> Bytes, std::function<void(Error)> Done);
  // Pieces inside reservations, in one frame (a graph's segments).
  void write(std::vector<WritePiece> Pieces, std::function<void(Error)> Done);
  void setupTLS(SetupTLSMsg M, Callback<TLSResultMsg> Done);
  void hangup(std::function<void(Error)> Done);

  // --- blocking helpers (need a transport whose receive() blocks) ------------
  Expected<SetupInfo> setupSync(std::string Triple);
  Expected<std::vector<uint64_t>> lookupSync(std::vector<std::string> Names);
  Expected<RunResultMsg> runMainSync(uint64_t Entry, std::vector<std::string> Args, Limits L = {},
                                     Startup S = Startup::CallMain);
  Expected<RunResultMsg> callSync(CallMsg M);
  Error hangupSync();
  // Pulls bytes from the transport until Done is set.
  Error waitFor(const bool &Done);
  // Runs an asynchronous step, handing it the callback to answer through,
  // and pulls bytes until it has answered: how every blocking helper (here
  // and in exec::Program) wraps the asynchronous one.
  template <typename T, typename IssueFn> Expected<T> sync(IssueFn Issue) {
    std::optional<Expected<T>> Result;
    bool Done = false;
    Issue(Callback<T>([&](Expected<T> R) { Result.emplace(std::move(R)), Done = true; }));
    return waitForResult(Result, Done);
  }
  // Pulls bytes until a step has answered into Result (setting Done), then
  // its answer. A transport that fails first may have failed the step too
  // (the executor gone): that same error is dropped, checked.
  template <typename T> Expected<T> waitForResult(std::optional<Expected<T>> &Result, const bool &Done) {
    if (Error E = waitFor(Done)) {
      if (Result)
        consumeError(Result->takeError());
      return E;
    }
    return std::move(*Result);
  }
  // The same for a step that answers with an Error alone: one whose answer
  // is nothing but success.
  template <typename IssueFn> Error syncError(IssueFn Issue) {
    auto R = sync<std::monostate>([&](Callback<std::monostate> Done) {
      Issue([Done = std::move(Done)](Error E) { E ? Done(std::move(E)) : Done(std::monostate{}); });
    });
    return R ? Error::success() : R.takeError();
  }

  // A run's result as the CLI reports it: the exit code for a return or an
  // exit; otherwise an error naming the limit or the fault, with PC and
  // address symbolized (an address in page zero reads "null pointer").
  static constexpr uint64_t NullPageSize = 4096;
  Expected<int64_t> exitCode(const RunResultMsg &R) const;
  std::string describe(const RunResultMsg &R) const;
  // The signal that ended the run, as it ends a native process: one the
  // program sent itself (abort), or the one its fault raised (SIGSEGV,
  // SIGILL); 0 for any other end.
  static int terminatingSignal(const RunResultMsg &R);

private:
  using Reply = std::function<void(Expected<Message>)>;
  void request(const Message &M, Reply OnReply);
  template <typename R, typename T, typename Fn> void expect(const Message &M, Callback<T> Done, Fn Extract);
  void failAll(const std::string &Why);
  // A send or receive failed with E while Doing (" sending run-main"...).
  void lost(const std::string &Doing, Error E);

  ByteTransport &Transport;
  FrameReader Reader;
  uint32_t NextSeq = 1;
  std::map<uint32_t, Reply> Pending;
  std::string Dead; // why the session ended
  OutputHandler Output;
  InputHandler Input;
  DebugHandler Debug;
  std::optional<uint32_t> DebugNext; // debugNextRun's, until a run-main takes it
  Symbolizer Symbolize;
  std::optional<SetupInfo> Info;
  ReservationPlan Reserved;                    // the executor's, as every reservation sent moves it
  uint32_t UncheckedSince = 0;                 // the first unchecked request since the last run; 0: none
  std::optional<std::string> UncheckedFailure; // the first failure they answered
  // Done's answer, unless an unchecked request failed before it: that failure then.
  template <typename T> Callback<T> afterUnchecked(Callback<T> Done);
};

} // namespace linklab::executor
