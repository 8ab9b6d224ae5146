#include "platform/arm_exidx.h"

#include "arch/arm.h"
#include "support/bits.h"
#include "target/target.h"

#include <algorithm>
#include <map>

namespace linklab {

namespace {
const char *const Start = "__exidx_start", *const End = "__exidx_end";
const char *const FindExidx = "__gnu_Unwind_Find_exidx";
constexpr uint32_t EntrySize = 8;

bool isExidx(const Section &S) { return S.name.starts_with(".ARM.exidx"); }
} // namespace

Error ArmExidxTable::notifyAdded(ResourceKey, LinkGraph &G) {
  if (G.triple().arch != Arch::Arm)
    return Error::success();
  for (Symbol *Ext : G.externalSymbols()) {
    if (Ext->name != FindExidx || !Ext->weaklyReferenced)
      continue;
    Symbol &Zero = G.addAbsoluteSymbol(FindExidx, 0, 0, Linkage::Strong, Scope::Local, false);
    G.forEachBlock([&](Block &B) {
      for (Edge &E : B.edges)
        if (E.target == Ext)
          E.target = &Zero;
    });
    G.removeExternalSymbol(*Ext);
    break;
  }
  return Error::success();
}

void ArmExidxTable::modifyPassConfig(const MaterializationInfo &, LinkGraph &G, PassConfiguration &Config) {
  if (G.triple().arch != Arch::Arm ||
      std::none_of(G.sections().begin(), G.sections().end(), [](auto &S) { return isExidx(*S); }))
    return;
  // Addresses are known, fixups not yet applied: read each entry's words
  // from its edges and the object's bytes.
  Config.postAllocationPasses.push_back([this](LinkGraph &G) -> Error {
    if (LaidOut)
      return Error::success();
    for (auto &Sec : G.sections()) {
      if (!isExidx(*Sec))
        continue;
      for (Block *B : Sec->blocks) {
        std::map<uint32_t, const Edge *> At;
        for (const Edge &E : B->edges)
          if (E.kind == arm::Data_PRel31)
            At[E.offset] = &E;
        auto Fail = [&](uint32_t Off, const char *Problem) {
          return makeError(formatv("%s: %s+0x%x: %s", G.name().c_str(), std::string(Sec->name).c_str(), Off, Problem));
        };
        auto Target = [](const Edge &E) {
          const Symbol &S = *E.target;
          return Addr(S.address() + E.addend) | ((S.targetFlags & arm::ThumbSymbol) ? 1 : 0);
        };
        if (B->size % EntrySize || B->isZeroFill())
          return Fail(0, "an index section holds whole 8-byte entries");
        for (uint32_t Off = 0; Off < B->size; Off += EntrySize) {
          auto Fn = At.find(Off), Second = At.find(Off + 4);
          if (Fn == At.end())
            return Fail(Off, "index entry without an R_ARM_PREL31 to its function");
          // A function named by a symbol another object's definition won
          // (the one that runs, indexed by that object) needs no entry here.
          if (!Fn->second->target->isDefined())
            continue;
          if (Second != At.end() && !Second->second->target->isDefined())
            return Fail(Off + 4, "index entry's R_ARM_PREL31 names no .ARM.extab entry this object defines");
          Entries.push_back(Second != At.end()
                                ? Entry{Target(*Fn->second), true, uint32_t(Target(*Second->second))}
                                : Entry{Target(*Fn->second), false, readLE<uint32_t>(B->content().data() + Off + 4)});
        }
      }
    }
    return Error::success();
  });
}

bool ArmExidxTable::claims(std::string_view Name) const { return Name == Start || Name == End; }

Error ArmExidxTable::tryToGenerate(Session &S, const std::vector<std::string> &) {
  LaidOut = true;
  std::stable_sort(Entries.begin(), Entries.end(),
                   [](const Entry &L, const Entry &R) { return (L.function & ~1) < (R.function & ~1); });
  auto G = std::make_unique<LinkGraph>("<section .ARM.exidx>", S.triple(), edgeKindNamesOf(S.triple()));
  Section &Sec = G->createSection(".ARM.exidx", MemProt::Read);
  size_t Size = Entries.size() * EntrySize;
  char *Buf = G->allocateBuffer(std::max<size_t>(Size, 1)); // a block needs a byte to have an address
  std::fill(Buf, Buf + std::max<size_t>(Size, 1), 0);
  Block &B = G->createMutableContentBlock(Sec, {Buf, std::max<size_t>(Size, 1)}, 0, 4, 0);
  // Each address an absolute symbol: the fixup computes its PREL31 from here.
  auto Absolute = [&](Addr A) -> Symbol & {
    return G->addAbsoluteSymbol(G->allocateString(formatv("__linklab_exidx.%llx", (unsigned long long)A)), A, 0,
                                Linkage::Strong, Scope::Local, false);
  };
  for (size_t I = 0; I < Entries.size(); ++I) {
    const Entry &E = Entries[I];
    uint32_t Off = uint32_t(I * EntrySize);
    B.addEdge(arm::Data_PRel31, Off, Absolute(E.function), 0);
    if (E.extab)
      B.addEdge(arm::Data_PRel31, Off + 4, Absolute(E.second), 0);
    else
      writeLE<uint32_t>(Buf + Off + 4, E.second);
  }
  G->addDefinedSymbol(B, 0, Start, 0, Linkage::Strong, Scope::Default, false, true);
  G->addDefinedSymbol(B, Size, End, 0, Linkage::Strong, Scope::Default, false, true);
  Entries.clear();
  auto Key = S.addGraph(std::move(G), ObjectKind::Runtime);
  return Key ? Error::success() : Key.takeError();
}

} // namespace linklab
