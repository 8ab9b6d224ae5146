#include "protocol/executor_client.h"

namespace linklab::executor {

void ExecutorClient::failAll(const std::string &Why) {
  if (Dead.empty())
    Dead = Why;
  // Take the map first: a callback may issue a new request.
  auto P = std::move(Pending);
  Pending.clear();
  for (auto &[Seq, R] : P)
    R(makeError(Dead));
}

void ExecutorClient::lost(const std::string &Doing, Error E) {
  std::string Gone = Transport.peerGone();
  if (!Gone.empty()) { // the peer's end says it all
    consumeError(std::move(E));
    return failAll(Gone);
  }
  failAll("executor connection lost" + Doing + ": " + E.message());
}

void ExecutorClient::request(const Message &M, Reply OnReply) {
  if (!Dead.empty())
    return OnReply(makeError(Dead));
  uint32_t Seq = NextSeq++;
  Pending[Seq] = std::move(OnReply);
  std::vector<uint8_t> Bytes = encode(Seq, M);
  if (Error E = Transport.send(Bytes))
    lost(std::string(" sending ") + messageName(M), std::move(E));
}

void ExecutorClient::flush() {
  if (Dead.empty())
    if (Error E = Transport.flush())
      lost("", std::move(E));
}

Error ExecutorClient::feed(std::span<const uint8_t> Bytes) {
  if (!Dead.empty())
    return makeError(Dead);
  Reader.feed(Bytes);
  for (;;) {
    auto F = Reader.next();
    if (!F) {
      failAll("malformed message from the executor: " + F.takeError().message());
      return makeError(Dead);
    }
    if (!*F)
      return Error::success();
    Frame &Fr = **F;
    // Output is streamed under the run's sequence number, ahead of its result.
    if (auto *O = std::get_if<OutputMsg>(&Fr.message)) {
      if (Output)
        Output(Stream(O->stream), {reinterpret_cast<const char *>(O->bytes.data()), O->bytes.size()});
      continue;
    }
    if (auto *Q = std::get_if<InputRequestMsg>(&Fr.message)) {
      InputMsg In{Input ? Input(Q->maxBytes) : std::vector<uint8_t>()};
      if (In.bytes.size() > Q->maxBytes)
        In.bytes.resize(Q->maxBytes);
      Error E = Transport.send(encode(Fr.seq, In));
      if (!E)
        E = Transport.flush();
      if (E) {
        lost(" sending input", std::move(E));
        return makeError(Dead);
      }
      continue;
    }
    if (auto *D = std::get_if<DebugStopMsg>(&Fr.message)) {
      if (Debug) {
        Debug(Fr.seq, std::move(*D));
      } else if (Error E = debugResume(Fr.seq, DebugResumeMsg{uint8_t(DebugAction::Kill), {}, 0, 0})) {
        consumeError(std::move(E));
        return makeError(Dead);
      }
      continue;
    }
    if (Fr.seq == 0) { // the executor is closing the session
      auto *Fail = std::get_if<FailureMsg>(&Fr.message);
      failAll(Fail ? Fail->message : formatv("unexpected %s message with sequence 0", messageName(Fr.message)));
      return makeError(Dead);
    }
    auto It = Pending.find(Fr.seq);
    if (It == Pending.end()) {
      failAll(formatv("executor answered unknown request %u with %s", Fr.seq, messageName(Fr.message)));
      return makeError(Dead);
    }
    Reply R = std::move(It->second);
    Pending.erase(It);
    if (auto *Fail = std::get_if<FailureMsg>(&Fr.message))
      R(makeError(Fail->message));
    else
      R(std::move(Fr.message));
  }
}

// Sends M and hands Done what Extract makes of the reply, which must be an R.
template <typename R, typename T, typename Fn>
void ExecutorClient::expect(const Message &M, Callback<T> Done, Fn Extract) {
  std::string Name = messageName(M);
  request(M, [this, Done = std::move(Done), Extract, Name](Expected<Message> Rep) {
    // The connection's end is one error whichever step meets it; an error
    // the executor answered is the step's.
    if (!Rep)
      return Done(Dead.empty() ? Rep.takeError().withContext(Name) : Rep.takeError());
    auto *V = std::get_if<R>(&*Rep);
    if (!V)
      return Done(
          makeError(formatv("%s: executor replied with %s, expected %s", Name.c_str(), messageName(*Rep), R::Name)));
    Done(Expected<T>(Extract(*V)));
  });
}

static Callback<OkMsg> asError(std::function<void(Error)> Done) {
  return [Done = std::move(Done)](Expected<OkMsg> R) { Done(R ? Error::success() : R.takeError()); };
}

std::function<void(Error)> ExecutorClient::unchecked(std::string Context) {
  if (!UncheckedSince)
    UncheckedSince = NextSeq;
  return [this, Context = std::move(Context)](Error E) {
    if (E && !UncheckedFailure && Dead.empty())
      UncheckedFailure = Context.empty() ? E.message() : Context + ": " + E.message();
    consumeError(std::move(E));
  };
}

template <typename T> Callback<T> ExecutorClient::afterUnchecked(Callback<T> Done) {
  return [this, Done = std::move(Done)](Expected<T> R) {
    std::optional<std::string> Failed = std::exchange(UncheckedFailure, std::nullopt);
    if (!Failed || !Dead.empty())
      return Done(std::move(R));
    if (!R)
      consumeError(R.takeError());
    Done(makeError(*Failed));
  };
}

// An empty lookup: its answer comes after every earlier request's.
void ExecutorClient::settle(std::function<void(Error)> Done) {
  UncheckedSince = 0;
  lookup({}, afterUnchecked(Callback<std::vector<uint64_t>>(
                 [Done = std::move(Done)](auto R) { Done(R ? Error::success() : R.takeError()); })));
}

void ExecutorClient::setup(std::string Triple, Callback<SetupInfo> Done) {
  expect<SetupResultMsg>(SetupMsg{ProtocolVersion, std::move(Triple)},
                         Callback<SetupInfo>([this, Done = std::move(Done)](Expected<SetupInfo> I) {
                           if (I)
                             Info = *I;
                           Done(std::move(I));
                         }),
                         [](SetupResultMsg &M) {
                           return SetupInfo{M.triple, M.pageSize, M.symbols};
                         });
}
SetupInfo predictedSetup(std::string Triple) {
  return {std::move(Triple), ReservationPlan::PageSize, executorSymbols()};
}

Error checkSetupAnswer(const SetupInfo &Got, const SetupInfo &Predicted) {
  bool Same = Got.pageSize == Predicted.pageSize && Got.symbols.size() == Predicted.symbols.size() &&
              std::equal(Got.symbols.begin(), Got.symbols.end(), Predicted.symbols.begin(),
                         [](const ExposedSymbol &A, const ExposedSymbol &B) {
                           return A.name == B.name && A.address == B.address;
                         });
  if (Same)
    return Error::success();
  return makeError(formatv("the executor's setup (page size %s, %zu symbols) is not what this linklab linked for "
                           "(page size %s, %zu symbols): are linklab and linklab-executor from the same build?",
                           hex(Got.pageSize).c_str(), Got.symbols.size(), hex(Predicted.pageSize).c_str(),
                           Predicted.symbols.size()));
}

void ExecutorClient::setupUnchecked(std::string Triple) {
  SetupInfo Predicted = predictedSetup(Triple);
  setup(std::move(Triple), [Predicted, Report = unchecked()](Expected<SetupInfo> Got) {
    Report(Got ? checkSetupAnswer(*Got, Predicted) : Got.takeError());
  });
  Info = std::move(Predicted);
}

void ExecutorClient::reserve(uint64_t Size, uint64_t Align, Callback<uint64_t> Done) {
  ReservationPlan Next = Reserved;
  if (auto At = Next.take(Size, Align))
    Reserved = Next;
  else
    consumeError(At.takeError()); // the executor refuses it too, and says so
  expect<AddressMsg>(ReserveMsg{Size, Align, uint8_t(Region::Objects)}, std::move(Done),
                     [](AddressMsg &M) { return M.address; });
}
Expected<uint64_t> ExecutorClient::reserveNow(uint64_t Size, uint64_t Align, Region R,
                                              std::function<void(Error)> Done) {
  auto At = Reserved.take(Size, Align, R);
  if (!At)
    return At;
  expect<AddressMsg>(ReserveMsg{Size, Align, uint8_t(R)},
                     Callback<uint64_t>([At = *At, Done = std::move(Done)](Expected<uint64_t> B) {
                       if (!B)
                         return Done(B.takeError());
                       if (*B != At)
                         return Done(makeError(formatv("the executor reserved %s where %s was expected",
                                                       hex(*B).c_str(), hex(At).c_str())));
                       Done(Error::success());
                     }),
                     [](AddressMsg &M) { return M.address; });
  return At;
}
void ExecutorClient::finalize(std::vector<SegmentWrite> Segments, std::function<void(Error)> Done) {
  expect<OkMsg>(FinalizeMsg{std::move(Segments)}, asError(std::move(Done)), [](OkMsg &M) { return M; });
}
void ExecutorClient::mapFile(int Fd, std::vector<FileSegment> Segments, std::function<void(Error)> Done) {
  // The descriptor goes first: the executor takes it when it serves the frame.
  if (Error E = Transport.sendDescriptor(Fd))
    return Done(std::move(E).withContext("map-file"));
  expect<OkMsg>(MapFileMsg{std::move(Segments)}, asError(std::move(Done)), [](OkMsg &M) { return M; });
}
void ExecutorClient::deallocate(std::vector<uint64_t> Bases, std::function<void(Error)> Done) {
  expect<OkMsg>(DeallocateMsg{std::move(Bases)}, asError(std::move(Done)), [](OkMsg &M) { return M; });
}
void ExecutorClient::lookup(std::vector<std::string> Names, Callback<std::vector<uint64_t>> Done) {
  size_t N = Names.size();
  expect<LookupResultMsg>(
      LookupMsg{std::move(Names)},
      Callback<std::vector<uint64_t>>([N, Done = std::move(Done)](Expected<std::vector<uint64_t>> R) {
        if (R && R->size() != N)
          return Done(makeError(formatv("lookup: %zu answers for %zu names", R->size(), N)));
        Done(std::move(R));
      }),
      [](LookupResultMsg &M) { return std::move(M.addresses); });
}
void ExecutorClient::runMain(uint64_t Entry, std::vector<std::string> Args, Limits L, Callback<RunResultMsg> Done,
                             Startup S, std::vector<std::string> Env, std::vector<InputFile> Files,
                             std::vector<MemoryRange> EhFrames) {
  RunMainMsg M{Entry, uint8_t(S), std::move(Args), std::move(Env), L, std::move(Files)};
  if (DebugNext)
    M.debug = 1, M.debugIdleMillis = *DebugNext, M.ehFrames = std::move(EhFrames), DebugNext.reset();
  M.okSince = std::exchange(UncheckedSince, 0);
  expect<RunResultMsg>(std::move(M), afterUnchecked(std::move(Done)), [](RunResultMsg &R) { return std::move(R); });
}
Error ExecutorClient::debugResume(uint32_t Seq, DebugResumeMsg M) {
  if (!Dead.empty())
    return makeError(Dead);
  if (!Pending.count(Seq))
    return makeError(formatv("debug-resume: request %u is not a run in progress", Seq));
  Error E = Transport.send(encode(Seq, M));
  if (!E)
    E = Transport.flush();
  if (E) {
    lost(" sending debug-resume", std::move(E));
    return makeError(Dead);
  }
  return Error::success();
}
void ExecutorClient::call(CallMsg M, Callback<RunResultMsg> Done) {
  // A call has no okSince: it waits for the unchecked answers instead.
  if (UncheckedSince)
    return settle([this, M = std::move(M), Done = std::move(Done)](Error E) mutable {
      if (E)
        return Done(std::move(E));
      call(std::move(M), std::move(Done));
    });
  expect<RunResultMsg>(std::move(M), std::move(Done), [](RunResultMsg &R) { return std::move(R); });
}
void ExecutorClient::readMemory(uint64_t Addr, uint64_t Size, Callback<std::vector<uint8_t>> Done) {
  expect<MemoryMsg>(ReadMemoryMsg{Addr, Size}, std::move(Done), [](MemoryMsg &M) { return std::move(M.bytes); });
}
void ExecutorClient::writeMemory(uint64_t Addr, std::vector<uint8_t> Bytes, std::function<void(Error)> Done) {
  expect<OkMsg>(WriteMemoryMsg{Addr, std::move(Bytes)}, asError(std::move(Done)), [](OkMsg &M) { return M; });
}
void ExecutorClient::write(std::vector<WritePiece> Pieces, std::function<void(Error)> Done) {
  expect<OkMsg>(WriteMsg{std::move(Pieces)}, asError(std::move(Done)), [](OkMsg &M) { return M; });
}
void ExecutorClient::setupTLS(SetupTLSMsg M, Callback<TLSResultMsg> Done) {
  expect<TLSResultMsg>(std::move(M), std::move(Done), [](TLSResultMsg &R) { return R; });
}
void ExecutorClient::hangup(std::function<void(Error)> Done) {
  expect<OkMsg>(HangupMsg{}, asError(std::move(Done)), [](OkMsg &M) { return M; });
}

Error ExecutorClient::waitFor(const bool &Done) {
  uint8_t Buf[1 << 16];
  while (!Done) {
    if (!Dead.empty())
      return makeError(Dead);
    auto N = Transport.receive(Buf);
    if (!N) {
      lost("", N.takeError());
      return makeError(Dead);
    }
    if (*N == 0) {
      std::string Gone = Transport.peerGone();
      failAll(Gone.empty() ? "executor closed the connection" : Gone);
      return makeError(Dead);
    }
    if (Error E = feed({Buf, *N}))
      return E;
  }
  return Error::success();
}

Expected<SetupInfo> ExecutorClient::setupSync(std::string Triple) {
  return sync<SetupInfo>([&](Callback<SetupInfo> D) { setup(std::move(Triple), std::move(D)); });
}
Expected<std::vector<uint64_t>> ExecutorClient::lookupSync(std::vector<std::string> Names) {
  return sync<std::vector<uint64_t>>([&](auto D) { lookup(std::move(Names), std::move(D)); });
}
Expected<RunResultMsg> ExecutorClient::runMainSync(uint64_t Entry, std::vector<std::string> Args, Limits L, Startup S) {
  return sync<RunResultMsg>([&](auto D) { runMain(Entry, std::move(Args), L, std::move(D), S); });
}
Expected<RunResultMsg> ExecutorClient::callSync(CallMsg M) {
  return sync<RunResultMsg>([&](auto D) { call(std::move(M), std::move(D)); });
}
Error ExecutorClient::hangupSync() {
  return syncError([&](auto D) { hangup(std::move(D)); });
}

std::string ExecutorClient::describe(const RunResultMsg &R) const {
  auto Name = [&](uint64_t A) {
    std::string S = Symbolize ? Symbolize(A) : std::string();
    return S.empty() ? hex(A) : hex(A) + " (" + S + ")";
  };
  // In a process with threads, the message ends naming the one it concerns.
  size_t At = R.message.rfind(" in thread ");
  std::string Thread = At == std::string::npos ? "" : R.message.substr(At);
  switch (R.runStatus()) {
  case RunStatus::Returned: return formatv("returned %lld", (long long)R.value);
  case RunStatus::Exited: return formatv("exited with status %lld", (long long)R.value);
  case RunStatus::Signaled: {
    const char *Sig = signalName(R.value);
    // A message beyond the signal's name says why (a bad signal frame...).
    bool Why = !R.message.empty() && !R.message.starts_with("killed by");
    return formatv("killed by %s at pc %s%s%s", Sig ? Sig : formatv("signal %lld", (long long)R.value).c_str(),
                   Name(R.pc).c_str(), Why ? ": " : "", Why ? R.message.c_str() : Thread.c_str());
  }
  case RunStatus::Fault: {
    // Page zero is never mapped: an address there is a null pointer (plus a
    // field's offset), not a symbol that happens to sit at 0.
    std::string Address = R.address >= NullPageSize ? "address " + Name(R.address)
                          : R.address
                              ? formatv("null pointer+%s (address %s)", hex(R.address).c_str(), hex(R.address).c_str())
                              : std::string("null pointer (address 0x0)");
    return formatv("%s at pc %s, %s%s", faultKindName(FaultKind(R.faultKind)), Name(R.pc).c_str(), Address.c_str(),
                   Thread.c_str());
  }
  default: break;
  }
  return formatv("%s at pc %s: %s", runStatusName(R.runStatus()), Name(R.pc).c_str(), R.message.c_str());
}

int ExecutorClient::terminatingSignal(const RunResultMsg &R) {
  if (R.runStatus() == RunStatus::Signaled)
    return int(R.value & 0x7f);
  return R.runStatus() == RunStatus::Fault ? faultSignal(FaultKind(R.faultKind)) : 0;
}

Expected<int64_t> ExecutorClient::exitCode(const RunResultMsg &R) const {
  if (R.runStatus() == RunStatus::Returned || R.runStatus() == RunStatus::Exited)
    return R.value;
  return makeError("program " + describe(R));
}

} // namespace linklab::executor
