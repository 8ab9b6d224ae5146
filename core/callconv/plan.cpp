// Plan validation, the plan text format, and what is built from finished
// plans (indirect calls, bridge moves). Materialization is in materialize.cpp.
#include "callconv/plan.h"
#include "callconv/value_shape.h"

#include <charconv>

namespace linklab::callconv {

namespace {

uint32_t fnv32(std::string_view S) {
  uint32_t H = 0x811c9dc5u;
  for (unsigned char C : S)
    H = (H ^ C) * 0x01000193u;
  return H;
}

Error malformed(const std::string &What) { return makeError("malformed plan: " + What); }

// Decimal or 0x-hex; "-" is the absent value -1 where Absent allows it.
std::optional<int64_t> number(std::string_view S, bool Absent = false) {
  if (Absent && S == "-")
    return -1;
  int Base = 10;
  if (S.size() > 2 && S[0] == '0' && (S[1] == 'x' || S[1] == 'X')) {
    S.remove_prefix(2);
    Base = 16;
  }
  int64_t V = 0;
  auto [End, Ec] = std::from_chars(S.data(), S.data() + S.size(), V, Base);
  if (S.empty() || Ec != std::errc() || End != S.data() + S.size() || V < 0 || V > 0xffffffffll)
    return std::nullopt;
  return V;
}

std::string str(std::string_view S) { return std::string(S); }

// "<high>:<low>" of the target and convention IDs.
std::optional<std::pair<uint32_t, uint32_t>> idPair(std::string_view S) {
  auto Parts = split(S, ':');
  if (Parts.size() != 2)
    return std::nullopt;
  auto H = number(Parts[0]), L = number(Parts[1]);
  if (!H || !L)
    return std::nullopt;
  return std::pair{uint32_t(*H), uint32_t(*L)};
}

std::string locationText(const Location &L) {
  std::string Reg = L.Register < 0 ? "-" : std::to_string(L.Register);
  std::string Off = L.StackOffset < 0 ? "-" : std::to_string(L.StackOffset);
  return formatv("%c,%u,%u,%u,%u,%s,%s,0x%x", L.InRegister ? 'r' : 's', L.Value, L.Offset, L.Size, L.Align, Reg.c_str(),
                 Off.c_str(), L.Flags);
}

Expected<Location> parseLocation(std::string_view S, const char *List, size_t Index) {
  auto F = split(S, ',');
  std::string Where = formatv("%s location %zu '%s'", List, Index, str(S).c_str());
  if (F.size() != 8 || (F[0] != "r" && F[0] != "s"))
    return malformed(Where + ": expected <r|s>,value,offset,size,align,register,stack "
                             "offset,flags");
  Location L;
  L.InRegister = F[0] == "r";
  std::optional<int64_t> N[7];
  for (int I = 0; I < 7; ++I)
    if (!(N[I] = number(F[I + 1], I == 4 || I == 5)))
      return malformed(formatv("%s: field %d '%s' is not a number", Where.c_str(), I + 1, str(F[I + 1]).c_str()));
  L.Value = uint32_t(*N[0]);
  L.Offset = uint32_t(*N[1]);
  L.Size = uint32_t(*N[2]);
  L.Align = uint32_t(*N[3]);
  L.Register = int32_t(*N[4]);
  L.StackOffset = *N[5];
  L.Flags = uint32_t(*N[6]);
  return L;
}

// Checks one location list against the signature's values.
Error checkLocations(const ArchConventions &T, const Signature &Sig, uint32_t StackBytes, std::vector<Location> &Locs,
                     bool Returns) {
  std::vector<ValueType> Values = Returns ? std::vector<ValueType>() : Sig.Params;
  if (Returns && Sig.Return)
    Values.push_back(*Sig.Return);
  const char *What = Returns ? "return value" : "argument";
  std::vector<uint32_t> Covered(Values.size(), 0);
  std::vector<int> Regs;
  std::vector<std::pair<int64_t, int64_t>> Slots;
  for (Location &L : Locs) {
    if (L.Value >= Values.size())
      return malformed(formatv("%s %u is not in signature '%s'", What, L.Value, Sig.str().c_str()));
    const ValueType &V = Values[L.Value];
    ValueShape S = shapeOf(T, V);
    std::string Where = formatv("%s %u (%s) part +%u", What, L.Value, V.str().c_str(), L.Offset);
    if (L.Offset != Covered[L.Value])
      return malformed(formatv("%s: expected the part at +%u", Where.c_str(), Covered[L.Value]));
    if (L.Size == 0 || L.Offset + L.Size > S.PassedSize)
      return malformed(formatv("%s: %u bytes overrun the %u bytes passed", Where.c_str(), L.Size, S.PassedSize));
    if (L.Align == 0 || (L.Align & (L.Align - 1)))
      return malformed(formatv("%s: alignment %u is not a power of two", Where.c_str(), L.Align));
    if ((L.Flags & (SRetPointer | ByValue | Indirect)) != S.Flags || (L.Flags & ~0xfu))
      return malformed(formatv("%s: flags 0x%x, expected 0x%x", Where.c_str(), L.Flags, S.Flags));
    Covered[L.Value] += L.Size;
    if (L.InRegister) {
      const RegInfo *R = L.Register < 0 ? nullptr : T.byNumber(unsigned(L.Register));
      if (!R || L.StackOffset != -1)
        return malformed(formatv("%s: register %d is not a usable %s register", Where.c_str(), L.Register, T.Name));
      bool FpValue = V.Kind == ValueKind::Float || V.Kind == ValueKind::Vector;
      if (L.Size > R->Bytes || (R->Class == RegClass::Fpr && !FpValue))
        return malformed(
            formatv("%s: %s cannot carry %u bytes of %s", Where.c_str(), R->Name.c_str(), L.Size, V.str().c_str()));
      if (std::find(Regs.begin(), Regs.end(), R->Number) != Regs.end())
        return malformed(formatv("%s: %s already carries another %s part", Where.c_str(), R->Name.c_str(), What));
      Regs.push_back(R->Number);
      auto [Name, Bytes] = T.view(*R, L.Size);
      L.RegisterName = Name;
      L.RegisterBytes = Bytes;
      continue;
    }
    if (Returns)
      return malformed(Where + ": return values live in registers (return through sret)");
    if (L.Register != -1 || L.StackOffset < 0 || L.StackOffset % L.Align || L.StackOffset + L.Size > StackBytes)
      return malformed(formatv("%s: stack slot %lld is outside the %u-byte argument area or "
                               "misaligned",
                               Where.c_str(), (long long)L.StackOffset, StackBytes));
    for (auto [Begin, End] : Slots)
      if (L.StackOffset < End && Begin < L.StackOffset + L.Size)
        return malformed(formatv("%s: stack slot %lld overlaps another part", Where.c_str(), (long long)L.StackOffset));
    Slots.push_back({L.StackOffset, L.StackOffset + L.Size});
  }
  for (uint32_t I = 0; I < Values.size(); ++I)
    if (uint32_t Passed = shapeOf(T, Values[I]).PassedSize; Covered[I] != Passed)
      return malformed(
          formatv("%s %u (%s): parts cover %u of %u bytes", What, I, Values[I].str().c_str(), Covered[I], Passed));
  return Error::success();
}

} // namespace

std::string ConventionId::str() const { return formatv("%u:0x%08x", K, Id); }

ConventionId conventionOf(const Spec &S) { return {ConventionId::Spec, fnv32(S.canonical())}; }

ConventionId conventionOfPlugin(std::string_view Name) { return {ConventionId::Plugin, fnv32(Name)}; }

Error checkPlannable(const ArchConventions &Target, const Signature &Sig) {
  if (Sig.Variadic)
    return makeError(formatv("callconv: cannot plan '%s' for %s: variadic functions are not "
                             "supported (their variadic arguments would be mis-passed)",
                             Sig.str().c_str(), Target.Name));
  return Error::success();
}

Expected<Plan> Plan::create(const ArchConventions &Target, Signature Sig, PlanTable T,
                            std::vector<std::string> Warnings) {
  if (Error E = checkPlannable(Target, Sig))
    return E;
  if (T.StackBytes % 16)
    return malformed(formatv("stack size %u is not a multiple of 16", T.StackBytes));
  if (Error E = checkLocations(Target, Sig, T.StackBytes, T.Returns, true))
    return E;
  if (Error E = checkLocations(Target, Sig, T.StackBytes, T.Arguments, false))
    return E;
  for (size_t I = 0; I < T.CalleeSaved.size(); ++I)
    if (!Target.byNumber(T.CalleeSaved[I]) || (I && T.CalleeSaved[I - 1] >= T.CalleeSaved[I]))
      return malformed(formatv("callee-saved register %u is unknown, reserved or out of order", T.CalleeSaved[I]));
  Plan P;
  P.Target = &Target;
  P.Sig = std::move(Sig);
  P.Table = std::move(T);
  P.Warnings = std::move(Warnings);
  return P;
}

std::string Plan::text() const {
  auto Join = [](const std::vector<Location> &Locs) {
    std::string S;
    for (const Location &L : Locs)
      S += (S.empty() ? "" : "|") + locationText(L);
    return S;
  };
  std::string Csr;
  for (uint16_t R : Table.CalleeSaved)
    Csr += (Csr.empty() ? "" : ",") + std::to_string(R);
  return formatv("%s;schema=%s;target=%s;cc=%s;stack=%u;returns=%s;arguments=%s;"
                 "callee-saved=%s",
                 str(PlanVersion).c_str(), Target->Schema.c_str(), Target->targetId().c_str(),
                 Table.Convention.str().c_str(), Table.StackBytes, Join(Table.Returns).c_str(),
                 Join(Table.Arguments).c_str(), Csr.c_str());
}

std::string Plan::describe() const {
  auto Parts = [](const std::vector<Location> &Locs, uint32_t Value) {
    std::string S;
    for (const Location &L : Locs)
      if (L.Value == Value)
        S += (S.empty() ? "" : "+") + (L.InRegister ? L.RegisterName : formatv("[sp+%lld]", (long long)L.StackOffset));
    return S;
  };
  std::string S = (Sig.Return ? Parts(Table.Returns, 0) : "void") + "(";
  for (uint32_t I = 0; I < Sig.Params.size(); ++I)
    S += (I ? ", " : "") + Parts(Table.Arguments, I);
  return S + ")";
}

Expected<Plan> parsePlan(std::string_view Text, const Signature &Sig, const ArchConventions &Target,
                         std::optional<ConventionId> Expect) {
  static const std::string_view Names[] = {"schema", "target", "cc", "stack", "returns", "arguments", "callee-saved"};
  auto Fields = split(Text, ';');
  if (Fields.size() != 8)
    return malformed(formatv("expected 8 ';'-separated fields, found %zu", Fields.size()));
  if (Fields[0] != PlanVersion)
    return malformed(formatv("version '%s' is not '%s'", str(Fields[0]).c_str(), str(PlanVersion).c_str()));
  std::string_view V[7];
  for (size_t I = 0; I < 7; ++I) {
    std::string_view F = Fields[I + 1];
    if (F.substr(0, Names[I].size()) != Names[I] || F.substr(Names[I].size(), 1) != "=")
      return malformed(formatv("field %zu is '%s', expected '%s=...'", I + 1, str(F).c_str(), str(Names[I]).c_str()));
    V[I] = F.substr(Names[I].size() + 1);
  }
  // The schema first: without it no register number below has a meaning.
  if (V[0] != Target.Schema)
    return makeError(formatv("plan belongs to foreign target schema '%s' (%s uses '%s')", str(V[0]).c_str(),
                             Target.Name, Target.Schema.c_str()));
  auto TargetId = idPair(V[1]);
  auto CC = idPair(V[2]);
  auto Stack = number(V[3]);
  if (!TargetId || !CC || !Stack)
    return malformed(formatv("target '%s', cc '%s' or stack '%s' is not well-formed", str(V[1]).c_str(),
                             str(V[2]).c_str(), str(V[3]).c_str()));
  if (*TargetId != std::pair<uint32_t, uint32_t>(Target.Machine, Target.Abi))
    return makeError(
        formatv("plan has foreign target ID %s (%s is %s)", str(V[1]).c_str(), Target.Name, Target.targetId().c_str()));
  PlanTable T;
  T.Convention = {CC->first, CC->second};
  if (Expect && T.Convention != *Expect)
    return makeError(
        formatv("plan has foreign convention ID %s (expected %s)", T.Convention.str().c_str(), Expect->str().c_str()));
  T.StackBytes = uint32_t(*Stack);
  for (int List = 0; List < 2; ++List) {
    if (V[4 + List].empty())
      continue;
    size_t Index = 0;
    for (std::string_view S : split(V[4 + List], '|')) {
      auto L = parseLocation(S, Names[4 + List].data(), Index++);
      if (!L)
        return L.takeError();
      (List ? T.Arguments : T.Returns).push_back(*L);
    }
  }
  if (!V[6].empty())
    for (std::string_view S : split(V[6], ',')) {
      auto N = number(S);
      if (!N || *N > 0xffff)
        return malformed(formatv("callee-saved register '%s' is not a number", str(S).c_str()));
      T.CalleeSaved.push_back(uint16_t(*N));
    }
  return Plan::create(Target, Sig, std::move(T));
}

Expected<Plan> planIndirectCall(const Plan &Callee, std::string_view Symbol, std::vector<std::string> &Warnings) {
  if (!Callee.isStandard())
    Warnings.push_back(formatv("callconv: address of '%s' taken for an indirect call: indirect calls use the "
                               "standard %s convention, not its convention %s",
                               str(Symbol).c_str(), Callee.target().StandardName, Callee.convention().str().c_str()));
  return standardPlan(Callee.target(), Callee.signature());
}

Expected<std::vector<Move>> bridgeMoves(const Plan &Caller, const Plan &Callee) {
  if (&Caller.target() != &Callee.target() || Caller.signature() != Callee.signature())
    return makeError(formatv("callconv: cannot bridge a %s plan for '%s' to a %s plan for '%s'", Caller.target().Name,
                             Caller.signature().str().c_str(), Callee.target().Name, Callee.signature().str().c_str()));
  std::vector<Move> Moves;
  // Arguments flow caller -> callee, results callee -> caller.
  for (bool Ret : {false, true}) {
    const Plan &Src = Ret ? Callee : Caller;
    const Plan &Dst = Ret ? Caller : Callee;
    const auto &DstLocs = Ret ? Dst.returns() : Dst.arguments();
    for (const Location &From : Ret ? Src.returns() : Src.arguments()) {
      auto To = std::find_if(DstLocs.begin(), DstLocs.end(), [&](const Location &L) {
        return L.Value == From.Value && L.Offset == From.Offset && L.Size == From.Size;
      });
      if (To == DstLocs.end())
        return makeError(formatv("callconv: cannot bridge %s %u: part +%u is split differently",
                                 Ret ? "return value" : "argument", From.Value, From.Offset));
      if (!From.sameSlot(*To))
        Moves.push_back({Ret, From, *To});
    }
  }
  return Moves;
}

} // namespace linklab::callconv
