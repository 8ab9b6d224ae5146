#include "repro/reduce.h"

#include "elf/elf_file.h"
#include "target/target.h"

#include <algorithm>
#include <chrono>

namespace linklab::repro {

namespace {

enum class Stage { Inputs, Members, Sections, Symbols, Relocations };
const char *stageName(Stage S) {
  static const char *Names[] = {"inputs", "archive members", "sections", "symbols", "relocations"};
  return Names[int(S)];
}

using Item = ReduceItem;
constexpr Stage Stages[] = {Stage::Inputs, Stage::Members, Stage::Sections, Stage::Symbols, Stage::Relocations};

std::string objectName(const ReproInput &In, const ElfObject &O) {
  return In.archive ? In.name + "(" + O.name + ")" : In.name;
}

bool referenced(const ElfObject &O, uint32_t Sym) {
  for (auto &S : O.sections) {
    if (S.type == elf::SHT_GROUP && S.groupSignature == Sym)
      return true;
    for (auto &R : S.relocs)
      if (R.symbol == Sym)
        return true;
  }
  return false;
}

// Drops the symbols with Keep[i] false and renumbers the rest; relocations
// against a dropped symbol go, and so do groups it names.
void compactSymbols(ElfObject &O, const std::vector<bool> &Keep) {
  std::vector<uint32_t> Map(O.symbols.size(), 0);
  std::vector<ObjSymbol> Out;
  for (uint32_t I = 0; I < O.symbols.size(); ++I)
    if (I == 0 || Keep[I]) {
      Map[I] = uint32_t(Out.size());
      Out.push_back(std::move(O.symbols[I]));
    }
  O.symbols = std::move(Out);
  for (auto &S : O.sections) {
    std::erase_if(S.relocs, [&](const ObjReloc &R) { return R.symbol && !Map[R.symbol]; });
    for (auto &R : S.relocs)
      R.symbol = Map[R.symbol];
    std::erase_if(S.addrsig, [&](uint32_t I) { return !Map[I]; });
    for (auto &I : S.addrsig)
      I = Map[I];
    if (S.type == elf::SHT_GROUP)
      S.groupSignature = Map[S.groupSignature];
  }
}

// Section symbols and assembler temporaries (.L) exist for relocations to
// refer to; once none does, they go (an assembler would not write them).
void dropUnusedSectionSymbols(ElfObject &O) {
  std::vector<bool> Keep(O.symbols.size(), true);
  for (uint32_t I = 1; I < O.symbols.size(); ++I) {
    const ObjSymbol &S = O.symbols[I];
    bool Helper = S.type == elf::STT_SECTION || (S.bind == elf::STB_LOCAL && S.name.starts_with(".L"));
    Keep[I] = !Helper || referenced(O, I);
  }
  compactSymbols(O, Keep);
}

// Defined symbol I becomes an undefined global reference.
void makeUndefined(ObjSymbol &S, const std::string &SectionName) {
  if (S.name.empty())
    S.name = SectionName; // a section symbol: references keep a name to resolve
  if (S.bind == elf::STB_LOCAL)
    S.bind = elf::STB_GLOBAL;
  if (S.type == elf::STT_SECTION || S.type == elf::STT_COMMON || S.type == elf::STT_GNU_IFUNC)
    S.type = elf::STT_NOTYPE;
  S.section = SecUndef;
  S.value = S.size = 0;
}

// Removes section Sec: its relocations go; symbols defined in it become
// undefined references where something refers to them, else go; groups
// left without members go too.
void removeSection(ElfObject &O, uint32_t Sec) {
  std::string Name = O.sections[Sec].name;
  O.sections[Sec].relocs.clear();
  for (auto &G : O.sections)
    std::erase(G.groupMembers, Sec);
  std::vector<bool> Keep(O.symbols.size(), true);
  for (uint32_t I = 1; I < O.symbols.size(); ++I) {
    ObjSymbol &S = O.symbols[I];
    if (S.section != Sec)
      continue;
    if (referenced(O, I) && (!S.name.empty() || S.type == elf::STT_SECTION))
      makeUndefined(S, Name);
    else
      Keep[I] = false;
  }
  compactSymbols(O, Keep);
  O.sections.erase(O.sections.begin() + Sec);
  for (auto &S : O.symbols)
    if (S.section != SecUndef && S.section != SecAbs && S.section != SecCommon && S.section > Sec)
      --S.section;
  for (auto &G : O.sections)
    for (auto &M : G.groupMembers)
      if (M > Sec)
        --M;
  for (uint32_t I = uint32_t(O.sections.size()); I-- > 0;)
    if (O.sections[I].type == elf::SHT_GROUP && O.sections[I].groupMembers.empty())
      return removeSection(O, I);
}

bool isPlainSymbol(const ObjSymbol &S) { return S.type != elf::STT_SECTION && S.type != elf::STT_FILE; }

std::vector<Item> listItems(Stage St, const ReproCase &C) {
  std::vector<Item> Out;
  for (size_t I = 0; I < C.inputs.size(); ++I) {
    const ReproInput &In = C.inputs[I];
    if (St == Stage::Inputs) {
      Out.push_back({I});
      continue;
    }
    if (St == Stage::Members) {
      if (In.archive)
        for (size_t M = 0; M < In.objects.size(); ++M)
          Out.push_back({I, M});
      continue;
    }
    for (size_t M = 0; M < In.objects.size(); ++M) {
      const ElfObject &O = In.objects[M];
      if (St == Stage::Sections)
        for (size_t S = 0; S < O.sections.size(); ++S) {
          if (O.sections[S].type != elf::SHT_GROUP && O.sections[S].type != SHT_LLVM_ADDRSIG)
            Out.push_back({I, M, S});
        }
      else if (St == Stage::Symbols)
        for (uint32_t S = 1; S < O.symbols.size(); ++S) {
          const ObjSymbol &Sym = O.symbols[S];
          if (!isPlainSymbol(Sym))
            continue;
          bool Ref = referenced(O, S);
          // Defined: goes, or becomes a reference where it is used (which
          // needs a name); undefined: goes if unused.
          if (Sym.defined() ? !Ref || !Sym.name.empty() : !Ref)
            Out.push_back({I, M, S});
        }
      else
        for (size_t S = 0; S < O.sections.size(); ++S)
          for (size_t R = 0; R < O.sections[S].relocs.size(); ++R)
            Out.push_back({I, M, R, S});
    }
  }
  return Out;
}

// Applies one removal; returns what it removed.
std::string apply(Stage St, ReproCase &C, const Item &It) {
  ReproInput &In = C.inputs[It.in];
  switch (St) {
  case Stage::Inputs: {
    std::string D = (In.archive ? "archive " : "object ") + In.name;
    C.inputs.erase(C.inputs.begin() + It.in);
    return D;
  }
  case Stage::Members: {
    std::string D = "member " + objectName(In, In.objects[It.obj]);
    In.objects.erase(In.objects.begin() + It.obj);
    return D;
  }
  case Stage::Sections: {
    ElfObject &O = In.objects[It.obj];
    std::string D = "section " + O.sections[It.index].name + " of " + objectName(In, O);
    removeSection(O, uint32_t(It.index));
    dropUnusedSectionSymbols(O);
    return D;
  }
  case Stage::Symbols: {
    ElfObject &O = In.objects[It.obj];
    ObjSymbol &S = O.symbols[It.index];
    std::string D = "symbol " + S.name + " of " + objectName(In, O);
    if (S.defined() && referenced(O, uint32_t(It.index))) {
      makeUndefined(S, "");
      return D + " (now an undefined reference)";
    }
    std::vector<bool> Keep(O.symbols.size(), true);
    Keep[It.index] = false;
    compactSymbols(O, Keep);
    return D;
  }
  case Stage::Relocations: {
    ElfObject &O = In.objects[It.obj];
    ObjSection &S = O.sections[It.section];
    const ObjReloc &R = S.relocs[It.index];
    // Named as Inspect names it (R_X86_64_PC32), by number where the target has no name for it.
    const TargetInfo *T = elfTarget(O.machine);
    const char *Kind = T && T->relocationName ? T->relocationName(R.type) : nullptr;
    // A section symbol has no name of its own: its section's.
    const ObjSymbol *Sym = R.symbol ? &O.symbols[R.symbol] : nullptr;
    std::string Against = !Sym                               ? "nothing"
                          : !Sym->name.empty()               ? Sym->name
                          : Sym->section < O.sections.size() ? "section " + O.sections[Sym->section].name
                                                             : formatv("symbol %u", R.symbol);
    std::string D =
        formatv("relocation at %s+%s (%s, against %s) of %s", S.name.c_str(), hex(R.offset).c_str(),
                Kind ? Kind : formatv("type %u", R.type).c_str(), Against.c_str(), objectName(In, O).c_str());
    S.relocs.erase(S.relocs.begin() + It.index);
    dropUnusedSectionSymbols(O);
    return D;
  }
  }
  return "";
}

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

} // namespace

Reducer::Reducer(ReproCase Input, ReduceOptions O) : Opts(std::move(O)), C(std::move(Input)), Start(now()) {}

double Reducer::elapsed() const { return now() - Start; }
void Reducer::say(const std::string &S) const {
  if (Opts.progress)
    Opts.progress(S);
}

// Each stage tries chunks of its items from the last to the first, halving
// the chunk down to single items; after a removal holds, the items are
// listed again (indices moved) and the search goes on below it.
bool Reducer::advance() {
  while (StageIndex < std::size(Stages)) {
    Stage St = Stages[StageIndex];
    if (!StageStarted) {
      Items = listItems(St, C);
      say(formatv("reduce: %s: %zu to try", stageName(St), Items.size()));
      Chunk = std::max<size_t>(1, Items.size() / 2);
      End = Items.size();
      StageStarted = true;
    }
    if (Items.empty() || (End == 0 && Chunk == 1)) {
      ++StageIndex, StageStarted = false;
      continue;
    }
    if (End == 0) {
      Chunk /= 2;
      Items = listItems(St, C);
      End = Items.size();
      continue;
    }
    Begin = End >= Chunk ? End - Chunk : 0;
    // Never try an empty link: it fails for an uninteresting reason.
    if (St == Stage::Inputs && Begin == 0 && End == Items.size()) {
      End = Begin;
      continue;
    }
    return true;
  }
  return false;
}

const ReproCase *Reducer::next() {
  if (Done)
    return nullptr;
  if (!Tested) {
    ++R.tests;
    return &C;
  }
  if (elapsed() > Opts.seconds) {
    R.timedOut = Done = true;
    say(formatv("reduce: time limit (%.0f s) reached; stopping with what holds so far", Opts.seconds));
    return nullptr;
  }
  if (!advance()) {
    Done = true;
    say(formatv("reduce: done after %u tests, %.1f s", R.tests, elapsed()));
    return nullptr;
  }
  Cand = C;
  What.clear();
  for (size_t K = End; K-- > Begin;)
    What.push_back(apply(Stages[StageIndex], Cand, Items[K]));
  ++R.tests;
  return &Cand;
}

Error Reducer::report(bool Fails) {
  if (!Tested) {
    Tested = true;
    if (Fails)
      return Error::success();
    Done = true;
    return makeError("reduce: the input does not fail as specified, so there is nothing to keep failing");
  }
  if (!Fails) {
    End = Begin;
    return Error::success();
  }
  C = std::move(Cand);
  for (auto W = What.rbegin(); W != What.rend(); ++W) {
    say("reduce: removed " + *W);
    R.removed.push_back(*W);
  }
  Items = listItems(Stages[StageIndex], C);
  End = std::min(Begin, Items.size());
  return Error::success();
}

ReduceResult Reducer::result() && {
  R.reduced = std::move(C);
  return std::move(R);
}

Expected<ReduceResult> reduce(ReproCase C, const FailurePredicate &Fails, const ReduceOptions &Opts) {
  Reducer Red(std::move(C), Opts);
  while (const ReproCase *Cand = Red.next())
    if (Error E = Red.report(Fails(*Cand)))
      return E;
  return std::move(Red).result();
}

} // namespace linklab::repro
