#include "unwind.h"

#include <algorithm>

namespace linklab::emu::unwind {

namespace {

// DW_EH_PE_* (LSB 10.5): the value's format in the low nibble, what it is
// relative to in bits 4-6, indirection in bit 7.
enum : uint8_t {
  PeAbsPtr = 0x00,
  PeUleb = 0x01,
  PeUdata2 = 0x02,
  PeUdata4 = 0x03,
  PeUdata8 = 0x04,
  PeSleb = 0x09,
  PeSdata2 = 0x0a,
  PeSdata4 = 0x0b,
  PeSdata8 = 0x0c,
  PePcRel = 0x10,
  PeOmit = 0xff,
};

// Bounded little- or big-endian reads over one range's bytes: a read past
// End fails (nullopt) and leaves At alone.
struct Cursor {
  const std::string &B;
  size_t &At;
  size_t End;
  bool Big;
  std::optional<uint64_t> fixed(unsigned N) {
    if (End < At || End - At < N)
      return std::nullopt;
    uint64_t V = 0;
    for (unsigned I = 0; I < N; ++I)
      V |= uint64_t(uint8_t(B[At + (Big ? N - 1 - I : I)])) << (8 * I);
    At += N;
    return V;
  }
  std::optional<uint64_t> uleb() {
    uint64_t V = 0;
    for (unsigned Shift = 0; At < End; Shift += 7) {
      uint8_t C = uint8_t(B[At++]);
      if (Shift < 64)
        V |= uint64_t(C & 0x7f) << Shift;
      if (!(C & 0x80))
        return V;
    }
    return std::nullopt;
  }
  std::optional<int64_t> sleb() {
    uint64_t V = 0;
    unsigned Shift = 0;
    for (; At < End; Shift += 7) {
      uint8_t C = uint8_t(B[At++]);
      if (Shift < 64)
        V |= uint64_t(C & 0x7f) << Shift;
      if (!(C & 0x80)) {
        if (Shift + 7 < 64 && (C & 0x40))
          V |= ~uint64_t(0) << (Shift + 7);
        return int64_t(V);
      }
    }
    return std::nullopt;
  }
};

uint64_t truncate(uint64_t V, uint8_t WordSize) { return WordSize == 8 ? V : V & 0xffffffffu; }

} // namespace

FrameTable::FrameTable(const std::vector<std::pair<uint64_t, uint64_t>> &Ranges, const ReadFn &Read, const ArchFacts &A)
    : A(A) {
  uint64_t Total = 0;
  for (auto [Addr, Size] : Ranges) {
    if (!Size || Size > MaxBytes - Total)
      continue;
    auto B = Read(Addr, Size);
    if (!B)
      continue;
    Total += Size;
    Bytes.emplace_back(Addr, std::move(*B));
    index(Bytes.size() - 1);
  }
  std::sort(Fdes.begin(), Fdes.end(), [](const Fde &X, const Fde &Y) { return X.begin < Y.begin; });
}

std::optional<uint64_t> FrameTable::readEncoded(size_t Range, size_t &At, size_t End, uint8_t Enc) const {
  const auto &[Base, B] = Bytes[Range];
  uint64_t Field = Base + At;
  Cursor C{B, At, End, A.bigEndian};
  std::optional<uint64_t> V;
  switch (Enc & 0x0f) {
  case PeAbsPtr: V = C.fixed(A.wordSize); break;
  case PeUleb: V = C.uleb(); break;
  case PeUdata2: V = C.fixed(2); break;
  case PeUdata4: V = C.fixed(4); break;
  case PeUdata8: V = C.fixed(8); break;
  case PeSleb: V = C.sleb(); break;
  case PeSdata2: V = C.fixed(2), V = V ? uint64_t(int64_t(int16_t(*V))) : V; break;
  case PeSdata4: V = C.fixed(4), V = V ? uint64_t(int64_t(int32_t(*V))) : V; break;
  case PeSdata8: V = C.fixed(8); break;
  default: return std::nullopt;
  }
  if (!V)
    return V;
  switch (Enc & 0x70) {
  case 0: break;
  case PePcRel: *V += Field; break;
  default: return std::nullopt; // text-, data- and function-relative: not in a linked ELF's .eh_frame
  }
  if (Enc & 0x80) // indirect: the value is where the pointer is
    return std::nullopt;
  return truncate(*V, A.wordSize);
}

// A CIE (LSB 10.6.1.1) at At in Range, parsed once.
std::optional<size_t> FrameTable::parseCie(size_t Range, size_t At) {
  if (auto I = CieAt.find({Range, At}); I != CieAt.end())
    return I->second;
  const std::string &B = Bytes[Range].second;
  size_t P = At;
  Cursor C{B, P, B.size(), A.bigEndian};
  auto Length = C.fixed(4);
  if (!Length || *Length == 0 || *Length >= 0xfffffff0u || *Length > B.size() - P)
    return std::nullopt;
  size_t End = P + *Length;
  C.End = End;
  auto Id = C.fixed(4);
  auto Version = C.fixed(1);
  if (!Id || *Id != 0 || !Version || (*Version != 1 && *Version != 3 && *Version != 4))
    return std::nullopt;
  std::string Aug;
  while (P < End && B[P])
    Aug += B[P++];
  if (P++ >= End)
    return std::nullopt;
  Cie R;
  if (*Version == 4 && !C.fixed(2)) // address and segment selector sizes
    return std::nullopt;
  auto CodeAlign = C.uleb();
  auto DataAlign = C.sleb();
  auto Ra = *Version == 1 ? C.fixed(1) : C.uleb();
  if (!CodeAlign || !DataAlign || !Ra || *Ra > 0xffff)
    return std::nullopt;
  R.codeAlign = *CodeAlign, R.dataAlign = *DataAlign, R.raColumn = uint16_t(*Ra);
  R.fdeEncoding = PeAbsPtr;
  if (!Aug.empty()) {
    if (Aug[0] != 'z') // an augmentation whose data's length is not given: cannot be skipped
      return std::nullopt;
    R.augmented = true;
    auto AugLen = C.uleb();
    if (!AugLen || *AugLen > End - P)
      return std::nullopt;
    size_t AugEnd = P + *AugLen;
    for (char K : Aug.substr(1)) {
      Cursor D{B, P, AugEnd, A.bigEndian};
      if (K == 'R') {
        auto E = D.fixed(1);
        if (!E)
          return std::nullopt;
        R.fdeEncoding = uint8_t(*E);
      } else if (K == 'L') {
        if (!D.fixed(1))
          return std::nullopt;
      } else if (K == 'P') {
        auto E = D.fixed(1);
        if (!E || (*E != PeOmit && !readEncoded(Range, P, AugEnd, uint8_t(*E & 0x7f))))
          return std::nullopt;
      } else if (K == 'S') {
        R.signalFrame = true;
      } else if (K != 'B' && K != 'G') { // AArch64's BTI and MTE marks say nothing of the frame
        break;                           // unknown: the length lets the rest be skipped
      }
    }
    P = AugEnd;
  }
  R.insns = P, R.insnsEnd = End;
  Cies.push_back(R);
  return CieAt[{Range, At}] = Cies.size() - 1;
}

// Walks Range's records from its start to its terminator or end.
void FrameTable::index(size_t Range) {
  const std::string &B = Bytes[Range].second;
  size_t At = 0;
  while (B.size() - At >= 4) {
    size_t P = At;
    Cursor C{B, P, B.size(), A.bigEndian};
    auto Length = C.fixed(4);
    if (*Length == 0) // the terminator
      return;
    if (*Length >= 0xfffffff0u || *Length > B.size() - P) // 64-bit DWARF or cut short: not in an ELF .eh_frame here
      return;
    size_t End = P + *Length, Next = End;
    C.End = End;
    size_t IdField = P;
    auto Id = C.fixed(4);
    if (!Id)
      return;
    if (*Id != 0 && *Id <= IdField) { // an FDE: Id is the distance back to its CIE
      auto CieIndex = parseCie(Range, IdField - *Id);
      if (CieIndex) {
        const Cie &Ci = Cies[*CieIndex];
        auto Begin = readEncoded(Range, P, End, Ci.fdeEncoding);
        auto Size = readEncoded(Range, P, End, Ci.fdeEncoding & 0x0f);
        std::optional<uint64_t> AugLen = Ci.augmented ? Cursor{B, P, End, A.bigEndian}.uleb() : 0;
        if (Begin && Size && AugLen && *AugLen <= End - P && *Size)
          Fdes.push_back({*Begin, *Begin + *Size, Range, *CieIndex, P + size_t(*AugLen), End});
      }
    }
    At = Next;
  }
}

namespace {

// A register's rule in one row of the CFA table (DWARF 6.4.1).
struct Rule {
  enum Kind : uint8_t { Same, Undefined, Offset, ValOffset, Register, Unknown } kind = Same;
  int64_t value = 0;
};
struct Row {
  uint16_t cfaRegister = 0;
  int64_t cfaOffset = 0;
  bool cfaKnown = false, cfaExpression = false;
  std::map<uint16_t, Rule> rules;
};

} // namespace

std::vector<uint64_t> FrameTable::unwind(std::map<uint16_t, uint64_t> Regs, uint64_t Pc, const ReadFn &Read,
                                         size_t MaxFrames) const {
  std::vector<uint64_t> Returns;
  auto Word = [&](uint64_t Addr) -> std::optional<uint64_t> {
    auto B = Read(Addr, A.wordSize);
    if (!B)
      return std::nullopt;
    size_t At = 0;
    return Cursor{*B, At, B->size(), A.bigEndian}.fixed(A.wordSize);
  };
  bool Caller = false, Signal = false;
  std::optional<uint64_t> LastCfa;
  while (Returns.size() < MaxFrames) {
    // A caller's row is the call's: its return address may begin another function's code.
    uint64_t Look = Caller && !Signal ? Pc - 1 : Pc;
    auto F = std::upper_bound(Fdes.begin(), Fdes.end(), Look, [](uint64_t X, const Fde &E) { return X < E.begin; });
    const Fde *E = F != Fdes.begin() && Look < std::prev(F)->end ? &*std::prev(F) : nullptr;
    Row R;
    uint16_t RaColumn;
    if (!E) {
      if (Caller)
        break;
      Signal = false;
      // No FDE (a linker's stub): a function's first instruction, or a leaf.
      auto Sp = Regs.find(A.spColumn);
      if (Sp == Regs.end())
        break;
      R.cfaKnown = true, R.cfaRegister = A.spColumn;
      if (A.linkColumn < 0) {
        RaColumn = 0xffff;
        R.cfaOffset = A.wordSize, R.rules[RaColumn] = {Rule::Offset, -int64_t(A.wordSize)};
      } else {
        RaColumn = uint16_t(A.linkColumn);
      }
    } else {
      const Cie &Ci = Cies[E->cie];
      const std::string &B = Bytes[E->range].second;
      RaColumn = Ci.raColumn;
      Signal = Ci.signalFrame;
      Row Initial;
      std::vector<Row> Stack;
      uint64_t Loc = E->begin;
      bool Bad = false;
      // Runs a CFA program (DWARF 6.4.2) until the row for Look.
      auto Run = [&](size_t At, size_t End, bool InCie) {
        Cursor C{B, At, End, A.bigEndian};
        while (At < End && !Bad) {
          uint8_t Op = uint8_t(B[At++]);
          uint8_t Low = Op & 0x3f;
          auto Advance = [&](std::optional<uint64_t> Delta) {
            if (!Delta)
              return Bad = true, false;
            uint64_t Next = Loc + *Delta * Ci.codeAlign;
            if (Next > Look)
              return false; // the row for Look is this one
            Loc = Next;
            return true;
          };
          auto Reg = [&]() -> std::optional<uint16_t> {
            auto N = C.uleb();
            return N && *N <= 0xffff ? std::optional<uint16_t>(uint16_t(*N)) : std::nullopt;
          };
          auto SetRule = [&](std::optional<uint16_t> N, Rule::Kind K, std::optional<int64_t> V) {
            if (!N || !V)
              return void(Bad = true);
            R.rules[*N] = {K, *V};
          };
          auto Scaled = [&](std::optional<uint64_t> V) -> std::optional<int64_t> {
            return V ? std::optional<int64_t>(int64_t(*V) * Ci.dataAlign) : std::nullopt;
          };
          auto ScaledS = [&](std::optional<int64_t> V) -> std::optional<int64_t> {
            return V ? std::optional<int64_t>(*V * Ci.dataAlign) : std::nullopt;
          };
          auto Restore = [&](uint16_t N) {
            if (auto I = Initial.rules.find(N); I != Initial.rules.end())
              R.rules[N] = I->second;
            else
              R.rules.erase(N);
          };
          auto Block = [&]() {
            auto N = C.uleb();
            if (!N || *N > End - At)
              return void(Bad = true);
            At += *N;
          };
          switch (Op >> 6) {
          case 1:
            if (!Advance(Low))
              return;
            continue;
          case 2: SetRule(Low, Rule::Offset, Scaled(C.uleb())); continue;
          case 3:
            if (InCie)
              Bad = true;
            else
              Restore(Low);
            continue;
          }
          switch (Op) {
          case 0x00: break; // nop
          case 0x01: {      // set_loc
            auto V = readEncoded(E->range, At, End, Cies[E->cie].fdeEncoding);
            if (!V)
              return void(Bad = true);
            if (*V > Look)
              return;
            Loc = *V;
            break;
          }
          case 0x02:
            if (!Advance(C.fixed(1)))
              return;
            break;
          case 0x03:
            if (!Advance(C.fixed(2)))
              return;
            break;
          case 0x04:
            if (!Advance(C.fixed(4)))
              return;
            break;
          case 0x05: {
            auto N = Reg();
            SetRule(N, Rule::Offset, Scaled(C.uleb()));
            break;
          }
          case 0x06:
          case 0x07:
          case 0x08: {
            auto N = Reg();
            if (!N || (Op == 0x06 && InCie))
              return void(Bad = true);
            if (Op == 0x06)
              Restore(*N);
            else
              R.rules[*N] = {Op == 0x07 ? Rule::Undefined : Rule::Same, 0};
            break;
          }
          case 0x09: {
            auto N = Reg();
            auto From = Reg();
            SetRule(N, Rule::Register, From ? std::optional<int64_t>(*From) : std::nullopt);
            break;
          }
          case 0x0a:
            if (Stack.size() >= 64)
              return void(Bad = true);
            Stack.push_back(R);
            break;
          case 0x0b: {
            if (Stack.empty())
              return void(Bad = true);
            // The CFA rule too (as gdb and libgcc restore it).
            R = std::move(Stack.back());
            Stack.pop_back();
            break;
          }
          case 0x0c: {
            auto N = Reg();
            auto Off = C.uleb();
            if (!N || !Off)
              return void(Bad = true);
            R.cfaKnown = true, R.cfaExpression = false, R.cfaRegister = *N, R.cfaOffset = int64_t(*Off);
            break;
          }
          case 0x0d: {
            auto N = Reg();
            if (!N)
              return void(Bad = true);
            R.cfaKnown = true, R.cfaExpression = false, R.cfaRegister = *N; // the offset stays (0 if none was set)
            break;
          }
          case 0x0e: {
            auto Off = C.uleb();
            if (!Off)
              return void(Bad = true);
            R.cfaKnown = !R.cfaExpression, R.cfaOffset = int64_t(*Off);
            break;
          }
          case 0x0f: // def_cfa_expression: not evaluated, so the CFA is not known here
            Block();
            R.cfaKnown = false, R.cfaExpression = true;
            break;
          case 0x10:   // expression
          case 0x16: { // val_expression
            auto N = Reg();
            Block();
            SetRule(N, Rule::Unknown, 0);
            break;
          }
          case 0x11: {
            auto N = Reg();
            SetRule(N, Rule::Offset, ScaledS(C.sleb()));
            break;
          }
          case 0x12: {
            auto N = Reg();
            auto Off = ScaledS(C.sleb());
            if (!N || !Off)
              return void(Bad = true);
            R.cfaKnown = true, R.cfaExpression = false, R.cfaRegister = *N, R.cfaOffset = *Off;
            break;
          }
          case 0x13: {
            auto Off = ScaledS(C.sleb());
            if (!Off)
              return void(Bad = true);
            R.cfaKnown = !R.cfaExpression, R.cfaOffset = *Off;
            break;
          }
          case 0x14: {
            auto N = Reg();
            SetRule(N, Rule::ValOffset, Scaled(C.uleb()));
            break;
          }
          case 0x15: {
            auto N = Reg();
            SetRule(N, Rule::ValOffset, ScaledS(C.sleb()));
            break;
          }
          case 0x2d: break; // GNU_window_save; AArch64's negate_ra_state (no pointer authentication here)
          case 0x2e:        // GNU_args_size
            if (!C.uleb())
              return void(Bad = true);
            break;
          case 0x2f: { // GNU_negative_offset_extended
            auto N = Reg();
            auto Off = Scaled(C.uleb());
            SetRule(N, Rule::Offset, Off ? std::optional<int64_t>(-*Off) : std::nullopt);
            break;
          }
          default: return void(Bad = true);
          }
        }
      };
      const Cie &Cc = Cies[E->cie];
      Run(Cc.insns, Cc.insnsEnd, true);
      Initial = R;
      if (!Bad)
        Run(E->insns, E->insnsEnd, false);
      if (Bad || !R.cfaKnown)
        break;
    }
    auto Base = Regs.find(R.cfaRegister);
    if (Base == Regs.end())
      break;
    uint64_t Cfa = truncate(Base->second + uint64_t(R.cfaOffset), A.wordSize);
    // The caller's frame is above this one (gdb: "previous frame inner to this frame").
    if (LastCfa && Cfa <= *LastCfa && !Signal)
      break;
    std::map<uint16_t, uint64_t> Next = Regs;
    bool Lost = false;
    for (auto [N, Ru] : R.rules) {
      switch (Ru.kind) {
      case Rule::Same: break;
      case Rule::Undefined:
      case Rule::Unknown: Next.erase(N); break;
      case Rule::Offset: {
        auto V = Word(truncate(Cfa + uint64_t(Ru.value), A.wordSize));
        if (V)
          Next[N] = *V;
        else
          Next.erase(N), Lost |= N == RaColumn;
        break;
      }
      case Rule::ValOffset: Next[N] = truncate(Cfa + uint64_t(Ru.value), A.wordSize); break;
      case Rule::Register:
        if (auto I = Regs.find(uint16_t(Ru.value)); I != Regs.end())
          Next[N] = I->second;
        else
          Next.erase(N);
        break;
      }
    }
    if (Lost)
      break;
    Next[A.spColumn] = Cfa;
    auto Ra = Next.find(RaColumn);
    // An undefined return address ends the stack (the entry's CFI says so).
    if (Ra == Next.end() || Ra->second == 0)
      break;
    Pc = Ra->second;
    Returns.push_back(Pc);
    // x86's return-address column is no register the caller has.
    if (A.linkColumn < 0)
      Next.erase(RaColumn);
    Regs = std::move(Next);
    LastCfa = Cfa;
    Caller = true;
  }
  return Returns;
}

} // namespace linklab::emu::unwind
