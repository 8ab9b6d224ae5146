#include "callconv/call.h"
#include "callconv/value_shape.h"

#include "program/program.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace linklab::callconv {

using namespace executor;

namespace {

ValueBytes littleEndian(unsigned __int128 V, uint32_t Size) {
  ValueBytes B(Size);
  for (uint32_t I = 0; I < Size; ++I)
    B[I] = uint8_t(V >> (8 * I));
  return B;
}

// The value of digit C in Base (10 or 16), or -1.
int digitValue(char C, unsigned Base) {
  int D = C >= '0' && C <= '9'   ? C - '0'
          : C >= 'a' && C <= 'f' ? C - 'a' + 10
          : C >= 'A' && C <= 'F' ? C - 'A' + 10
                                 : -1;
  return D < int(Base) ? D : -1;
}

// "bytes:HEX" in memory order, exactly Size bytes.
Expected<ValueBytes> parseBytes(std::string_view Hex, uint32_t Size) {
  if (Hex.size() != 2 * size_t(Size))
    return makeError(formatv("needs exactly %u bytes (%u hex digits), got %zu digits", Size, 2 * Size, Hex.size()));
  ValueBytes B(Size);
  for (uint32_t I = 0; I < Size; ++I) {
    unsigned V = 0;
    for (char C : Hex.substr(2 * I, 2)) {
      int D = digitValue(C, 16);
      if (D < 0)
        return makeError(formatv("'%c' is not a hex digit", C));
      V = V * 16 + unsigned(D);
    }
    B[I] = uint8_t(V);
  }
  return B;
}

// Decimal or 0x hex, with an optional '-', into Size bytes; accepts the
// signed and the unsigned range of the width (so -1 and 0xffffffff both fit i32).
Expected<ValueBytes> parseInteger(std::string_view T, uint32_t Size) {
  bool Neg = !T.empty() && T.front() == '-';
  if (Neg)
    T.remove_prefix(1);
  unsigned Base = 10;
  if (T.size() > 2 && T[0] == '0' && (T[1] == 'x' || T[1] == 'X')) {
    Base = 16;
    T.remove_prefix(2);
  }
  if (T.empty())
    return makeError("is not a number");
  unsigned __int128 V = 0, Max = Size >= 16 ? ~(unsigned __int128)0 : ((unsigned __int128)1 << (8 * Size)) - 1;
  for (char C : T) {
    int D = digitValue(C, Base);
    if (D < 0)
      return makeError("is not a number");
    unsigned __int128 Next = V * Base + unsigned(D);
    if ((Next - unsigned(D)) / Base != V || Next > Max)
      return makeError(formatv("does not fit in %u bytes", Size));
    V = Next;
  }
  if (Neg) {
    unsigned __int128 MinMag = (unsigned __int128)1 << (8 * Size - 1);
    if (V > MinMag)
      return makeError(formatv("does not fit in %u bytes", Size));
    V = ~V + 1;
  }
  return littleEndian(V, Size);
}

Expected<ValueBytes> parseValue(const ValueType &T, std::string_view Text) {
  if (Text.starts_with("bytes:"))
    return parseBytes(Text.substr(6), T.Size);
  switch (T.Kind) {
  case ValueKind::Int:
  case ValueKind::Ptr: return parseInteger(Text, T.Size);
  case ValueKind::Float: {
    if (T.Size != 4 && T.Size != 8)
      return makeError("is given as bytes:HEX for this float width");
    std::string S(Text);
    char *End = nullptr;
    errno = 0;
    double D = std::strtod(S.c_str(), &End);
    if (S.empty() || *End || errno == ERANGE)
      return makeError("is not a decimal floating-point number");
    ValueBytes B(T.Size);
    if (T.Size == 4) {
      float F = float(D);
      std::memcpy(B.data(), &F, 4);
    } else {
      std::memcpy(B.data(), &D, 8);
    }
    return B;
  }
  default: return makeError("is given as bytes:HEX (its exact size in memory order)");
  }
}

void put(std::vector<uint8_t> &Dst, size_t At, const uint8_t *Src, size_t N) {
  if (Dst.size() < At + N)
    Dst.resize(At + N);
  std::memcpy(Dst.data() + At, Src, N);
}

const RegInfo &regInfo(const Plan &P, int Number) { return *P.target().byNumber(unsigned(Number)); }

// Distinct, recognisable values for callee-saved registers.
uint64_t sentinelFor(uint16_t Reg) { return 0x5eed000000000000ull | (uint64_t(Reg) << 32) | 0xc0ffeeull; }

} // namespace

Expected<std::vector<ValueBytes>> parseCallArguments(const Signature &Sig, std::string_view Text) {
  std::vector<std::string> Tokens;
  if (!trim(Text).empty())
    for (std::string_view T : split(Text, ','))
      Tokens.push_back(std::string(trim(T)));
  size_t Wanted = 0;
  for (auto &P : Sig.Params)
    Wanted += P.Kind != ValueKind::SRet;
  if (Tokens.size() != Wanted)
    return makeError(formatv("call arguments '%s': '%s' takes %zu argument(s), got %zu (sret buffers are made by "
                             "the call)",
                             std::string(Text).c_str(), Sig.str().c_str(), Wanted, Tokens.size()));
  std::vector<ValueBytes> Out(Sig.Params.size());
  size_t Next = 0;
  for (size_t I = 0; I < Sig.Params.size(); ++I) {
    if (Sig.Params[I].Kind == ValueKind::SRet)
      continue;
    auto V = parseValue(Sig.Params[I], Tokens[Next]);
    if (!V)
      return makeError(formatv("call arguments: argument %zu (%s) '%s' %s", I, Sig.Params[I].str().c_str(),
                               Tokens[Next].c_str(), V.takeError().message().c_str()));
    Out[I] = std::move(*V);
    ++Next;
  }
  return Out;
}

uint64_t scratchBytes(const Plan &P) {
  uint64_t N = 0;
  for (auto &T : P.signature().Params)
    N += (T.Size + 15) & ~uint64_t(15); // every aggregate may need a copy or a buffer
  return N;
}

Expected<PreparedCall> prepareCall(const Plan &P, const std::vector<ValueBytes> &Args, uint64_t Scratch) {
  const Signature &Sig = P.signature();
  if (Args.size() != Sig.Params.size())
    return makeError(formatv("call through plan for '%s': %zu argument values for %zu parameters", Sig.str().c_str(),
                             Args.size(), Sig.Params.size()));
  PreparedCall PC;
  // What each parameter's locations carry: the value itself, or (sret,
  // by-reference aggregates) the address of a scratch copy.
  std::vector<ValueBytes> Carried(Args.size());
  uint64_t Next = Scratch;
  for (size_t I = 0; I < Args.size(); ++I) {
    const ValueType &T = Sig.Params[I];
    bool ByRef = false;
    for (auto &L : P.arguments())
      ByRef |= L.Value == I && (L.Flags & (LocationFlags::Indirect | LocationFlags::SRetPointer));
    if (T.Kind != ValueKind::SRet && Args[I].size() != T.Size)
      return makeError(
          formatv("call through plan: argument %zu (%s) has %zu bytes", I, T.str().c_str(), Args[I].size()));
    if (!ByRef) {
      Carried[I] = Args[I];
      continue;
    }
    uint64_t Addr = Next;
    Next += (T.Size + 15) & ~uint64_t(15);
    if (T.Kind == ValueKind::SRet)
      PC.SRet.push_back({uint32_t(I), Addr, T.Size});
    PC.Writes.push_back({Addr, T.Kind == ValueKind::SRet ? ValueBytes(T.Size) : Args[I]});
    Carried[I] = littleEndian(Addr, 8);
  }
  for (auto &L : P.arguments()) {
    const ValueBytes &V = Carried[L.Value];
    if (L.Offset + L.Size > V.size())
      return makeError(
          formatv("call through plan: argument %u part +%u exceeds its %zu bytes", L.Value, L.Offset, V.size()));
    if (L.InRegister)
      PC.Msg.registers.push_back(
          {uint16_t(L.Register), ValueBytes(V.begin() + L.Offset, V.begin() + L.Offset + L.Size)});
    else
      put(PC.Msg.stack, size_t(L.StackOffset), V.data() + L.Offset, L.Size);
  }
  PC.Msg.stack.resize(std::max<size_t>(PC.Msg.stack.size(), P.stackBytes()));
  for (auto &L : P.returns())
    PC.Msg.results.push_back(uint16_t(L.Register));
  for (uint16_t R : P.calleeSaved()) {
    bool Used = false;
    for (auto &RV : PC.Msg.registers)
      Used |= RV.dwarf == R;
    if (Used)
      continue;
    PC.Sentinels.push_back({R, sentinelFor(R)});
    PC.Msg.registers.push_back({R, littleEndian(sentinelFor(R), 8)});
    PC.Msg.results.push_back(R);
  }
  return PC;
}

Expected<CallResults> decodeCall(const Plan &P, const PreparedCall &PC, const RunResultMsg &R,
                                 const std::vector<ValueBytes> &SRetMemory) {
  if (R.runStatus() != RunStatus::Returned)
    return makeError(formatv("call through plan: the function did not return (%s)", runStatusName(R.runStatus())));
  auto Reg = [&](uint16_t N) -> const RegValue * {
    for (auto &RV : R.results)
      if (RV.dwarf == N)
        return &RV;
    return nullptr;
  };
  CallResults Out;
  if (P.signature().Return) {
    ValueBytes V(P.signature().Return->Size);
    for (auto &L : P.returns()) {
      const RegValue *RV = Reg(uint16_t(L.Register));
      if (!RV || RV->value.size() < L.Size)
        return makeError(formatv("call through plan: the executor did not report %s (DWARF %d)", L.RegisterName.c_str(),
                                 L.Register));
      std::memcpy(V.data() + L.Offset, RV->value.data(), L.Size);
    }
    Out.Return = std::move(V);
  }
  if (SRetMemory.size() != PC.SRet.size())
    return makeError("call through plan: sret buffers were not read back");
  for (size_t I = 0; I < PC.SRet.size(); ++I)
    Out.SRet.push_back({PC.SRet[I].Param, SRetMemory[I]});
  for (auto &[N, Set] : PC.Sentinels) {
    const RegValue *RV = Reg(N);
    uint64_t Got = 0;
    if (RV)
      std::memcpy(&Got, RV->value.data(), std::min<size_t>(8, RV->value.size()));
    if (!RV || Got != Set) // only the low 8 bytes: AAPCS64 preserves no more of v8-v15
      Out.Clobbered.push_back(formatv("%s: set %s before the call, %s after", regInfo(P, N).Name.c_str(),
                                      hex(Set).c_str(), RV ? hex(Got).c_str() : "unreported"));
  }
  return Out;
}

std::string formatValue(const ValueType &T, const ValueBytes &B) {
  auto Bytes = [&] {
    std::string S = "bytes:";
    for (uint8_t C : B)
      S += formatv("%02x", C);
    return S;
  };
  if (B.size() != T.Size)
    return Bytes();
  if (T.Kind == ValueKind::Int && T.Size <= 8) {
    uint64_t U = 0;
    std::memcpy(&U, B.data(), T.Size);
    int64_t S = T.Size == 8 ? int64_t(U) : int64_t(U << (64 - 8 * T.Size)) >> (64 - 8 * T.Size);
    return formatv("%lld", (long long)S);
  }
  if (T.Kind == ValueKind::Ptr || (T.Kind == ValueKind::Int && T.Size == 16)) {
    std::string S = "0x";
    bool Lead = true;
    for (size_t I = B.size(); I-- > 0;) {
      if (Lead && B[I] == 0 && I > 0)
        continue;
      S += Lead ? formatv("%x", B[I]) : formatv("%02x", B[I]);
      Lead = false;
    }
    return S;
  }
  if (T.Kind == ValueKind::Float && (T.Size == 4 || T.Size == 8)) {
    double D;
    if (T.Size == 4) {
      float F;
      std::memcpy(&F, B.data(), 4);
      D = F;
    } else {
      std::memcpy(&D, B.data(), 8);
    }
    // Shortest decimal that reads back to the same value.
    for (int Digits = 1; Digits <= 17; ++Digits) {
      std::string S = formatv("%.*g", Digits, D);
      double Back = std::strtod(S.c_str(), nullptr);
      if (T.Size == 4 ? float(Back) == float(D) : Back == D)
        return S;
    }
    return formatv("%.17g", D);
  }
  return Bytes();
}

std::vector<std::string> formatCall(const Plan &P, const CallResults &C) {
  std::vector<std::string> Lines;
  if (C.Return)
    Lines.push_back("return: " + formatValue(*P.signature().Return, *C.Return));
  for (auto &[I, B] : C.SRet)
    Lines.push_back(formatv("sret %u: ", I) + formatValue({ValueKind::ByVal, uint32_t(B.size()), 1}, B));
  for (auto &W : C.Clobbered)
    Lines.push_back("clobbered: " + W);
  return Lines;
}

namespace {

// One callThroughPlan in flight: each step's reply starts the next.
struct PlanCall : std::enable_shared_from_this<PlanCall> {
  ExecutorClient &C;
  Plan P;
  std::vector<ValueBytes> Args;
  Limits L;
  IssueCall Issue;
  Callback<PlanCallOutcome> Done;
  uint64_t Scratch = 0;
  PreparedCall PC;
  PlanCallOutcome Out;
  std::vector<ValueBytes> SRetMemory;

  PlanCall(ExecutorClient &C, Plan P, std::vector<ValueBytes> Args, Limits L, IssueCall Issue,
           Callback<PlanCallOutcome> Done)
      : C(C), P(std::move(P)), Args(std::move(Args)), L(L), Issue(std::move(Issue)), Done(std::move(Done)) {}

  void start() {
    uint64_t Need = scratchBytes(P);
    if (!Need)
      return prepare();
    uint64_t Page = C.setupInfo() ? C.setupInfo()->pageSize : 4096;
    uint64_t Size = (Need + Page - 1) / Page * Page;
    C.reserve(Size, Page, [Self = shared_from_this(), Size](Expected<uint64_t> A) {
      if (!A)
        return Self->Done(A.takeError());
      Self->Scratch = *A;
      Self->C.finalize({SegmentWrite{*A, ProtRead | ProtWrite, {}, Size}}, [Self](Error E) {
        if (E)
          return Self->finish(std::move(E));
        Self->prepare();
      });
    });
  }
  void prepare() {
    auto Prepared = prepareCall(P, Args, Scratch);
    if (!Prepared)
      return finish(Prepared.takeError());
    PC = std::move(*Prepared);
    PC.Msg.limits = L;
    write(0);
  }
  void write(size_t I) {
    if (I == PC.Writes.size())
      return call();
    C.writeMemory(PC.Writes[I].Address, PC.Writes[I].Bytes, [Self = shared_from_this(), I](Error E) {
      if (E)
        return Self->finish(std::move(E));
      Self->write(I + 1);
    });
  }
  void call() {
    Issue(PC.Msg, [Self = shared_from_this()](Expected<RunResultMsg> R) {
      if (!R)
        return Self->finish(R.takeError());
      Self->Out.Run = std::move(*R);
      if (Self->Out.Run.runStatus() != RunStatus::Returned)
        return Self->finish(Error::success());
      Self->read(0);
    });
  }
  void read(size_t I) {
    if (I == PC.SRet.size()) {
      auto Results = decodeCall(P, PC, Out.Run, SRetMemory);
      if (!Results)
        return finish(Results.takeError());
      Out.Results = std::move(*Results);
      return finish(Error::success());
    }
    C.readMemory(PC.SRet[I].Address, PC.SRet[I].Size, [Self = shared_from_this(), I](Expected<std::vector<uint8_t>> M) {
      if (!M)
        return Self->finish(M.takeError());
      Self->SRetMemory.push_back(std::move(*M));
      Self->read(I + 1);
    });
  }
  // Releases the scratch memory (a failure to do so only leaks it), then answers.
  void finish(Error E) {
    // FreeErr: giving back the scratch memory failed, reported if the call did not fail first.
    auto Answer = [Self = shared_from_this(), E = std::make_shared<Error>(std::move(E))](Error FreeErr) {
      if (*E) {
        consumeError(std::move(FreeErr));
        return Self->Done(std::move(*E));
      }
      if (FreeErr)
        return Self->Done(std::move(FreeErr).withContext("freeing the call's scratch memory"));
      Self->Done(std::move(Self->Out));
    };
    if (!Scratch)
      return Answer(Error::success());
    C.deallocate({Scratch}, Answer);
  }
};

} // namespace

void callThroughPlan(ExecutorClient &C, const Plan &P, std::vector<ValueBytes> Args, Limits L, IssueCall Issue,
                     Callback<PlanCallOutcome> Done) {
  std::make_shared<PlanCall>(C, P, std::move(Args), L, std::move(Issue), std::move(Done))->start();
}

Expected<CallResults> callWithPlan(exec::Program &Prog, const std::string &Symbol, const Plan &P,
                                   const std::vector<ValueBytes> &Args, Limits L) {
  ExecutorClient &C = Prog.client();
  auto Out = C.sync<PlanCallOutcome>([&](Callback<PlanCallOutcome> Done) {
    callThroughPlan(
        C, P, Args, L, [&Prog, Symbol](CallMsg M, Callback<RunResultMsg> D) { Prog.call(Symbol, std::move(M), D); },
        Done);
  });
  if (Error E = Prog.checkSetup()) {
    if (!Out)
      consumeError(Out.takeError());
    return E;
  }
  if (!Out)
    return Out.takeError();
  if (!Out->Results)
    return makeError(formatv("call of '%s' through plan: %s", Symbol.c_str(), C.describe(Out->Run).c_str()));
  return std::move(*Out->Results);
}

} // namespace linklab::callconv
