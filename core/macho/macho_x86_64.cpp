// MachO x86-64 relocations -> x86-64 edge kinds (<mach-o/x86_64/reloc.h>).
//
// Addends live in the fixup's bytes. PC-relative fields count from the end
// of the instruction; SIGNED_1/2/4 say how many immediate bytes follow the
// 4-byte field, so a section-relative (non-extern) one finds its target at
// fixup + 4 + N + stored value. A SUBTRACTOR entry followed by an UNSIGNED
// one encodes A - B. Thread-local variables are reached through their
// __thread_vars descriptor, whose address a GOT entry holds (TLV).
#include "arch/x86_64.h"
#include "link/eh_frame.h"
#include "macho/compact_unwind.h"
#include "macho/macho_graph_builder.h"

namespace linklab {
namespace {

using namespace x86_64;

enum : uint8_t { UNSIGNED, SIGNED, BRANCH, GOT_LOAD, GOT, SUBTRACTOR, SIGNED_1, SIGNED_2, SIGNED_4, TLV };

const char *const RelocNames[] = {
    "X86_64_RELOC_UNSIGNED", "X86_64_RELOC_SIGNED",     "X86_64_RELOC_BRANCH",   "X86_64_RELOC_GOT_LOAD",
    "X86_64_RELOC_GOT",      "X86_64_RELOC_SUBTRACTOR", "X86_64_RELOC_SIGNED_1", "X86_64_RELOC_SIGNED_2",
    "X86_64_RELOC_SIGNED_4", "X86_64_RELOC_TLV",
};

const char *relocName(uint32_t Type) { return Type < std::size(RelocNames) ? RelocNames[Type] : nullptr; }

const MachOGraphBuilder::PairKinds Pair = {UNSIGNED, Delta32, Delta64, NegDelta32, NegDelta64, false};

Error addRelocations(MachOGraphBuilder &GB, MachOSection &S, std::span<const MachORelocation> Relocs) {
  for (size_t I = 0; I < Relocs.size(); ++I) {
    const MachORelocation &R = Relocs[I];
    if (R.type == SUBTRACTOR) {
      if (Error E = GB.addSubtractorPair(S, R, I + 1 < Relocs.size() ? &Relocs[I + 1] : nullptr, Pair))
        return E;
      ++I;
      continue;
    }
    if (R.type > TLV)
      return GB.relocError(S, R, "unsupported relocation type");
    bool Signed = R.type == SIGNED || R.type == SIGNED_1 || R.type == SIGNED_2 || R.type == SIGNED_4;
    if (R.type == UNSIGNED ? (R.pcrel || R.length < 2 || (R.length == 2 && !R.external))
                           : (!R.pcrel || R.length != 2 || (!Signed && !R.external)))
      return GB.relocError(
          S, R, formatv("unsupported form (pcrel %d, extern %d, length %u)", R.pcrel, R.external, 1u << R.length));
    auto BP = GB.blockToFix(S, R);
    if (!BP)
      return BP.takeError();
    Block &B = **BP;
    uint32_t Off = uint32_t(S.address + R.address - B.address);
    const char *Loc = B.content().data() + Off;
    int64_t Stored = R.length == 3 ? int64_t(readLE<uint64_t>(Loc)) : int64_t(readLE<int32_t>(Loc));
    if ((R.type == GOT_LOAD || R.type == TLV) && Off < 3)
      return GB.relocError(S, R, "a GOT or TLV load needs the 3 instruction bytes before its field");
    if (!R.external) { // section-relative: the bytes locate the target
      Addr Fixup = S.address + R.address;
      unsigned Extra = R.type == SIGNED_1 ? 1 : R.type == SIGNED_2 ? 2 : R.type == SIGNED_4 ? 4 : 0;
      Addr Target = R.type == UNSIGNED ? Addr(Stored) : Fixup + 4 + Extra + Stored;
      auto T = GB.symbolByAddress(S, R, R.symbolnum, Target);
      if (!T)
        return T.takeError();
      int64_t Addend = int64_t(Target - (*T)->address()) - (R.type == UNSIGNED ? 0 : 4 + Extra);
      B.addEdge(R.type == UNSIGNED ? Pointer64 : Delta32, Off, **T, Addend);
      continue;
    }
    auto T = GB.symbolByIndex(S, R, R.symbolnum);
    if (!T)
      return T.takeError();
    struct Mapping {
      EdgeKind kind;
      int64_t addend;
    };
    Mapping M;
    switch (R.type) {
    case UNSIGNED:
      M = {R.length == 3 ? Pointer64 : Pointer32, R.length == 3 ? Stored : int64_t(uint32_t(Stored))};
      break;
    case BRANCH: M = {BranchPCRel32, Stored}; break;
    case GOT_LOAD: M = {RequestGOTAndTransformToPCRel32GOTLoadREXRelaxable, Stored - 4}; break;
    case GOT: M = {RequestGOTAndTransformToDelta32, Stored - 4}; break;
    case TLV: M = {RequestTLVPAndTransformToPCRel32TLVPLoadREXRelaxable, Stored}; break;
    default: M = {Delta32, Stored - 4}; break; // SIGNED, SIGNED_1/2/4: the stored value already counts the immediate
    }
    B.addEdge(M.kind, Off, **T, M.addend);
  }
  return Error::success();
}

void addPasses(LinkGraph &G, PassConfiguration &Config) {
  Config.prePrunePasses.push_back([](LinkGraph &G) { return splitEHFrame(G, EhFrameEdgeKinds, MachOEHFrame); });
  Config.prePrunePasses.push_back(splitCompactUnwind);
  addUnwindInfoPasses(Config);
  Config.postAllocationPasses.push_back(defineSectionRangeSymbols);
  Config.postPrunePasses.push_back(createGOTAndStubsPass(false));
  Config.preFixupPasses.push_back(optimizeGOTAndStubAccesses);
}

Expected<std::unique_ptr<LinkGraph>> createGraph(const TargetInfo &T, std::string Name, GraphBuffer Buffer) {
  return MachOGraphBuilder::build(T, "x86_64-apple-darwin", std::move(Name), std::move(Buffer), addRelocations);
}

} // namespace

extern const TargetInfo MachOX86_64Target = {
    MachOFormat, X86_64Arch, macho::CPU_TYPE_X86_64, "x86_64-apple-macosx", createGraph, addPasses, relocName};

} // namespace linklab
