// Materialization: binds a spec to a target's register table and places every
// value part. The standard convention is itself a spec (ArchConventions::
// StandardSpec), so "values the spec does not cover fall back to the standard
// convention" is just "an omitted list is taken from the standard spec"; the
// few psABI rules that are not lists live in ArchConventions's flags.
#include "callconv/plan.h"
#include "callconv/value_shape.h"

namespace linklab::callconv {

namespace {

struct Pool {
  std::string Key; // as spelled in the spec, for messages
  std::vector<const RegInfo *> Regs;
  size_t Next = 0;
  bool Fallback = false;
};

class Materializer {
public:
  Materializer(const ArchConventions &T, const Signature &Sig, ConventionId CC) : T(T), Sig(Sig) {
    Table.Convention = CC;
  }
  Error bind(const Spec &User, const Spec &Standard);
  Error placeReturn();
  Error placeArguments();
  void finish();

  PlanTable Table;
  std::vector<std::string> Warnings;

private:
  Expected<const RegInfo *> lookup(std::string_view Token, const std::string &Where);
  Error bindList(const Spec &User, const Spec &Standard, SpecRole Role, std::optional<RegClass> Class, Pool &Out);
  void toRegisters(std::vector<Location> &Out, uint32_t Value, const ValueShape &S,
                   const std::vector<const RegInfo *> &Regs, uint32_t Flags);
  void toStack(uint32_t Value, const ValueShape &S, size_t FirstPart, uint32_t Flags);
  size_t collect(Pool &P, size_t Want, std::vector<Location> &Used, std::vector<const RegInfo *> &Got);
  Error placePositional(uint32_t I, const ValueType &V, const ValueShape &S);

  const ArchConventions &T;
  const Signature &Sig;
  Pool ArgGpr, ArgFpr, RetGpr, RetFpr, Csr;
  const Spec *User = nullptr;
  std::optional<std::vector<std::string>> Args;
  uint32_t Stack = 0;
};

// "rdi+rsi" -> {"rdi", "rsi"}: the registers of a multi-part `args` token.
std::vector<std::string_view> partNames(std::string_view Token) { return split(Token, PartSeparator); }

bool inUse(const std::vector<Location> &Locs, const RegInfo *R) {
  for (const Location &L : Locs)
    if (L.InRegister && L.Register == R->Number)
      return true;
  return false;
}

const char *className(RegClass C) { return C == RegClass::Gpr ? "general-purpose" : "floating-point/vector"; }

// Unknown names are errors: a typo must not silently move an argument.
// Reserved registers are known, so callers can skip them with a warning.
Expected<const RegInfo *> Materializer::lookup(std::string_view Token, const std::string &Where) {
  if (const RegInfo *R = T.find(Token))
    return R;
  return makeError(formatv("callconv spec: %s: '%.*s' is not a %s register", Where.c_str(), int(Token.size()),
                           Token.data(), T.Name));
}

Error Materializer::bindList(const Spec &User, const Spec &Standard, SpecRole Role, std::optional<RegClass> Class,
                             Pool &Out) {
  bool Own = User.list(Role).has_value();
  const Spec &From = Own ? User : Standard;
  Out.Key = Own ? User.KeyNames[size_t(Role)] : std::string(canonicalKey(Role));
  Out.Fallback = !Own && Table.Convention.K != ConventionId::Standard;
  const std::vector<std::string> &Tokens = *From.list(Role);
  for (size_t I = 0; I < Tokens.size(); ++I) {
    auto R = lookup(Tokens[I], formatv("'%s' token %zu", Out.Key.c_str(), I));
    if (!R)
      return R.takeError();
    if ((*R)->Reserved) {
      Warnings.push_back(formatv("callconv spec: '%s' token %zu: '%s' is reserved on %s (%s); "
                                 "skipped",
                                 Out.Key.c_str(), I, (*R)->Name.c_str(), T.Name, (*R)->Note));
      continue;
    }
    if (Class && (*R)->Class != *Class) {
      Warnings.push_back(formatv("callconv spec: '%s' token %zu: '%s' is not a %s register; "
                                 "skipped",
                                 Out.Key.c_str(), I, (*R)->Name.c_str(), className(*Class)));
      continue;
    }
    Out.Regs.push_back(*R);
  }
  return Error::success();
}

Error Materializer::bind(const Spec &User, const Spec &Standard) {
  this->User = &User;
  Args = User.list(SpecRole::Args);
  if (Args && Args->empty())
    Args.reset(); // "args:" says nothing; the pools decide
  const std::tuple<SpecRole, std::optional<RegClass>, Pool *> Lists[] = {{SpecRole::ArgGpr, RegClass::Gpr, &ArgGpr},
                                                                         {SpecRole::ArgFpr, RegClass::Fpr, &ArgFpr},
                                                                         {SpecRole::RetGpr, RegClass::Gpr, &RetGpr},
                                                                         {SpecRole::RetFpr, RegClass::Fpr, &RetFpr},
                                                                         {SpecRole::CalleeSaved, std::nullopt, &Csr}};
  for (auto [Role, Class, P] : Lists)
    if (Error E = bindList(User, Standard, Role, Class, *P))
      return E;
  // Resolve every `args` name now, so a typo fails even past the last argument.
  for (size_t I = 0; Args && I < Args->size(); ++I)
    for (std::string_view Name : partNames((*Args)[I]))
      if (!isStackToken((*Args)[I]))
        if (auto R = lookup(Name, formatv("'args' token %zu", I)); !R)
          return R.takeError();
  return Error::success();
}

Location partAt(uint32_t Value, const ValueShape &S, size_t I, uint32_t Flags) {
  Location L;
  L.Value = Value;
  L.Offset = S.Parts[I].first;
  L.Size = S.Parts[I].second;
  L.Align = S.partAlign();
  L.Flags = Flags;
  return L;
}

void Materializer::toRegisters(std::vector<Location> &Out, uint32_t Value, const ValueShape &S,
                               const std::vector<const RegInfo *> &Regs, uint32_t Flags) {
  for (size_t I = 0; I < Regs.size(); ++I) {
    Location L = partAt(Value, S, I, Flags);
    L.InRegister = true;
    L.Register = Regs[I]->Number;
    Out.push_back(L);
  }
}

// Places parts [FirstPart, end) in consecutive 8-byte stack slots, the whole
// value aligned to its own alignment (SysV 3.2.3, AAPCS64 C.16, LP64D).
void Materializer::toStack(uint32_t Value, const ValueShape &S, size_t FirstPart, uint32_t Flags) {
  uint32_t Base = alignTo(Stack, std::max(8u, FirstPart ? 8u : S.Align));
  uint32_t Skip = S.Parts[FirstPart].first;
  for (size_t I = FirstPart; I < S.Parts.size(); ++I) {
    Location L = partAt(Value, S, I, Flags);
    L.StackOffset = Base + L.Offset - Skip;
    Table.Arguments.push_back(L);
  }
  Stack = Base + alignTo(S.PassedSize - Skip, 8);
}

// Gathers up to Want registers from P that are still free; returns the pool
// position after the last one taken.
size_t Materializer::collect(Pool &P, size_t Want, std::vector<Location> &Used, std::vector<const RegInfo *> &Got) {
  size_t Next = P.Next;
  for (; Got.size() < Want && Next < P.Regs.size(); ++Next)
    if (!inUse(Used, P.Regs[Next]) && std::find(Got.begin(), Got.end(), P.Regs[Next]) == Got.end())
      Got.push_back(P.Regs[Next]);
  return Next;
}

Error Materializer::placeReturn() {
  if (!Sig.Return)
    return Error::success();
  ValueShape S = shapeOf(T, *Sig.Return);
  Pool *P = S.Class == PartClass::Fpr ? &RetFpr : &RetGpr;
  std::vector<const RegInfo *> Got;
  collect(*P, S.Parts.size(), Table.Returns, Got);
  if (Got.empty() && P == &RetFpr && T.FpOverflowToGpr) {
    P = &RetGpr;
    collect(*P, S.Parts.size(), Table.Returns, Got);
  }
  if (Got.size() < S.Parts.size())
    return makeError(formatv("callconv: return value (%s) needs %zu register(s) but '%s' "
                             "provides %zu usable on %s; return it through a sret parameter",
                             Sig.Return->str().c_str(), S.Parts.size(), P->Key.c_str(), Got.size(), T.Name));
  toRegisters(Table.Returns, 0, S, Got, P->Fallback ? uint32_t(Fallback) : 0u);
  return Error::success();
}

// `args` token I places argument I; anything unusable sends it to the stack.
Error Materializer::placePositional(uint32_t I, const ValueType &V, const ValueShape &S) {
  auto ToStack = [&](const std::string &Why) {
    if (!Why.empty())
      Warnings.push_back(
          formatv("callconv spec: argument %u (%s): %s; passed on the stack", I, V.str().c_str(), Why.c_str()));
    toStack(I, S, 0, S.Flags);
    return Error::success();
  };
  if (I >= Args->size())
    return ToStack(formatv("past the 'args' list (%zu tokens)", Args->size()));
  const std::string &Token = (*Args)[I];
  if (isStackToken(Token))
    return ToStack("");
  if (S.Class == PartClass::Memory)
    return ToStack(formatv("%s passes it in memory, 'args' token '%s' ignored", T.StandardName, Token.c_str()));
  std::vector<const RegInfo *> Regs;
  for (std::string_view Name : partNames(Token)) {
    const RegInfo *R = T.find(Name); // known: bind() checked every name
    if (R->Reserved)
      return ToStack(
          formatv("'args' token '%s': %s is reserved on %s (%s)", Token.c_str(), R->Name.c_str(), T.Name, R->Note));
    Regs.push_back(R);
  }
  if (Regs.size() != S.Parts.size())
    return ToStack(
        formatv("needs %zu register(s), 'args' token '%s' names %zu", S.Parts.size(), Token.c_str(), Regs.size()));
  RegClass Want = S.Class == PartClass::Fpr ? RegClass::Fpr : RegClass::Gpr;
  for (const RegInfo *R : Regs) {
    if (R->Class != Want)
      return ToStack(
          formatv("'args' token '%s': %s is not a %s register", Token.c_str(), R->Name.c_str(), className(Want)));
    if (inUse(Table.Arguments, R) || std::count(Regs.begin(), Regs.end(), R) > 1)
      return ToStack(formatv("'args' token '%s': %s already carries an argument", Token.c_str(), R->Name.c_str()));
  }
  toRegisters(Table.Arguments, I, S, Regs, S.Flags);
  return Error::success();
}

Error Materializer::placeArguments() {
  for (uint32_t I = 0; I < Sig.Params.size(); ++I) {
    const ValueType &V = Sig.Params[I];
    ValueShape S = shapeOf(T, V);
    if (Args) {
      if (Error E = placePositional(I, V, S))
        return E;
      continue;
    }
    if (S.Class == PartClass::Memory) {
      toStack(I, S, 0, S.Flags);
      continue;
    }
    if (V.Kind == ValueKind::SRet && T.SRetRegister) { // AAPCS64: x8, outside the pool
      const RegInfo *R = T.find(T.SRetRegister);
      if (!inUse(Table.Arguments, R)) {
        toRegisters(Table.Arguments, I, S, {R}, S.Flags);
        continue;
      }
    }
    Pool *P = S.Class == PartClass::Fpr ? &ArgFpr : &ArgGpr;
    std::vector<const RegInfo *> Got;
    if (P == &ArgFpr && T.FpOverflowToGpr && (collect(*P, 1, Table.Arguments, Got), Got.empty()))
      P = &ArgGpr; // LP64D: a float with no FPR left follows the integer convention
    Got.clear();
    if (P == &ArgGpr && T.EvenGprPairFor16 && S.Align >= 16)
      P->Next += P->Next % 2; // AAPCS64 C.8: 16-byte aligned values start at an even register
    size_t Next = collect(*P, S.Parts.size(), Table.Arguments, Got);
    uint32_t Flags = S.Flags | (P->Fallback ? uint32_t(Fallback) : 0u);
    if (Got.size() == S.Parts.size()) {
      P->Next = Next;
      toRegisters(Table.Arguments, I, S, Got, Flags);
      continue;
    }
    if (T.GprOverflow == OverflowRule::Split && !Got.empty()) {
      toRegisters(Table.Arguments, I, S, Got, Flags);
      toStack(I, S, Got.size(), Flags);
    } else {
      toStack(I, S, 0, Flags);
    }
    if (T.GprOverflow != OverflowRule::KeepPool)
      P->Next = P->Regs.size();
  }
  return Error::success();
}

void Materializer::finish() {
  Table.StackBytes = alignTo(Stack, 16);
  for (const RegInfo *R : Csr.Regs)
    Table.CalleeSaved.push_back(R->Number);
  std::sort(Table.CalleeSaved.begin(), Table.CalleeSaved.end());
  Table.CalleeSaved.erase(std::unique(Table.CalleeSaved.begin(), Table.CalleeSaved.end()), Table.CalleeSaved.end());
  // A register the callee must preserve cannot also carry a value in or out.
  for (SpecRole Role : {SpecRole::Args, SpecRole::ArgGpr, SpecRole::ArgFpr, SpecRole::RetGpr, SpecRole::RetFpr}) {
    const auto &Tokens = User->list(Role);
    for (size_t I = 0; Tokens && I < Tokens->size(); ++I)
      for (std::string_view Name : partNames((*Tokens)[I]))
        if (const RegInfo *R = T.find(Name);
            R && std::binary_search(Table.CalleeSaved.begin(), Table.CalleeSaved.end(), R->Number))
          Warnings.push_back(formatv("callconv spec: %s is callee-saved ('%s') and also in "
                                     "'%s' (token %zu)",
                                     R->Name.c_str(), Csr.Key.c_str(), User->KeyNames[size_t(Role)].c_str(), I));
  }
  for (bool Ret : {true, false})
    for (const Location &L : Ret ? Table.Returns : Table.Arguments) {
      const RegInfo *R = L.InRegister ? T.byNumber(unsigned(L.Register)) : nullptr;
      if (!R || !R->Note)
        continue;
      std::string What = Ret ? "the return value" : formatv("argument %u", L.Value);
      Warnings.push_back(formatv("callconv spec: %s in %s: %s", What.c_str(), R->Name.c_str(), R->Note));
    }
}

Expected<Plan> materializeSpec(const Spec &User, const Signature &Sig, const ArchConventions &Target, ConventionId CC) {
  if (Error E = checkPlannable(Target, Sig))
    return E;
  auto Standard = parseSpec(Target.StandardSpec);
  if (!Standard)
    return Standard.takeError();
  Materializer M(Target, Sig, CC);
  M.Warnings = User.Warnings;
  if (Error E = M.bind(User, *Standard))
    return E;
  if (Error E = M.placeReturn())
    return E;
  if (Error E = M.placeArguments())
    return E;
  M.finish();
  return Plan::create(Target, Sig, std::move(M.Table), std::move(M.Warnings));
}

} // namespace

Expected<Plan> standardPlan(const ArchConventions &Target, const Signature &Sig) {
  return materializeSpec(Spec(), Sig, Target, {ConventionId::Standard, Target.Abi});
}

Expected<Plan> materialize(std::string_view Input, const Signature &Sig, const ArchConventions &Target,
                           std::optional<ConventionId> Expect) {
  std::string_view Head = Input.substr(0, Input.find(';'));
  if (Head == PlanVersion || (Head.size() > 1 && Head[0] == 'v' && Head.find(':') == Head.npos))
    return parsePlan(Input, Sig, Target, Expect);
  auto S = parseSpec(Input);
  if (!S)
    return S.takeError();
  if (Expect && conventionOf(*S) != *Expect)
    return makeError(formatv("spec '%.*s' has foreign convention ID %s (expected %s)", int(Input.size()), Input.data(),
                             conventionOf(*S).str().c_str(), Expect->str().c_str()));
  return materializeSpec(*S, Sig, Target, conventionOf(*S));
}

Expected<Plan> planFor(std::string_view Triple, std::string_view Signature, std::string_view Input,
                       std::string_view ExpectSpec) {
  auto T = targetForTriple(Triple);
  if (!T)
    return T.takeError();
  auto Sig = parseSignature(Signature);
  if (!Sig)
    return Sig.takeError();
  std::optional<ConventionId> Expect;
  if (ExpectSpec == "standard") {
    Expect = ConventionId{ConventionId::Standard, (*T)->Abi};
  } else if (!ExpectSpec.empty()) {
    auto Sp = parseSpec(ExpectSpec);
    if (!Sp)
      return Sp.takeError();
    Expect = conventionOf(*Sp);
  }
  return Input.empty() ? standardPlan(**T, *Sig) : materialize(Input, *Sig, **T, Expect);
}

} // namespace linklab::callconv
