// MachO arm64 relocations -> AArch64 edge kinds (<mach-o/arm64/reloc.h>).
//
// MachO keeps addends in the instruction or data bytes, except where an
// instruction field cannot hold one: then an ARM64_RELOC_ADDEND entry (its
// addend in the symbol-number field) precedes the BRANCH26/PAGE21/PAGEOFF12 it
// applies to. A SUBTRACTOR entry followed by an UNSIGNED one encodes A - B.
// Thread-local variables are reached through their __thread_vars descriptor,
// whose address a GOT entry holds (TLVP_LOAD_PAGE21/PAGEOFF12).
#include "arch/aarch64.h"
#include "link/eh_frame.h"
#include "macho/compact_unwind.h"
#include "macho/macho_graph_builder.h"

namespace linklab {
namespace {

using namespace aarch64;

enum : uint8_t {
  UNSIGNED,
  SUBTRACTOR,
  BRANCH26,
  PAGE21,
  PAGEOFF12,
  GOT_LOAD_PAGE21,
  GOT_LOAD_PAGEOFF12,
  POINTER_TO_GOT,
  TLVP_LOAD_PAGE21,
  TLVP_LOAD_PAGEOFF12,
  ADDEND,
  AUTHENTICATED_POINTER,
};

const char *const RelocNames[] = {
    "ARM64_RELOC_UNSIGNED",
    "ARM64_RELOC_SUBTRACTOR",
    "ARM64_RELOC_BRANCH26",
    "ARM64_RELOC_PAGE21",
    "ARM64_RELOC_PAGEOFF12",
    "ARM64_RELOC_GOT_LOAD_PAGE21",
    "ARM64_RELOC_GOT_LOAD_PAGEOFF12",
    "ARM64_RELOC_POINTER_TO_GOT",
    "ARM64_RELOC_TLVP_LOAD_PAGE21",
    "ARM64_RELOC_TLVP_LOAD_PAGEOFF12",
    "ARM64_RELOC_ADDEND",
    "ARM64_RELOC_AUTHENTICATED_POINTER",
};

const char *relocName(uint32_t Type) { return Type < std::size(RelocNames) ? RelocNames[Type] : nullptr; }

// The form (pc-relative, extern, log2 width) each type must have, and its kind.
struct Form {
  uint8_t type;
  bool pcrel, external;
  uint8_t length;
  EdgeKind kind;
};
const Form Forms[] = {
    {BRANCH26, true, true, 2, Branch26PCRel},
    {PAGE21, true, true, 2, Page21},
    {PAGEOFF12, false, true, 2, PageOffset12},
    {GOT_LOAD_PAGE21, true, true, 2, RequestGOTAndTransformToPage21},
    {GOT_LOAD_PAGEOFF12, false, true, 2, RequestGOTAndTransformToPageOffset12},
    {POINTER_TO_GOT, true, true, 2, RequestGOTAndTransformToDelta32},
    // The GOT entry holds the descriptor's address, as for any GOT load.
    {TLVP_LOAD_PAGE21, true, true, 2, RequestGOTAndTransformToPage21},
    {TLVP_LOAD_PAGEOFF12, false, true, 2, RequestGOTAndTransformToPageOffset12},
};

const MachOGraphBuilder::PairKinds Pair = {UNSIGNED, Delta32, Delta64, NegDelta32, NegDelta64, true};

Error addRelocations(MachOGraphBuilder &GB, MachOSection &S, std::span<const MachORelocation> Relocs) {
  for (size_t I = 0; I < Relocs.size(); ++I) {
    const MachORelocation *R = &Relocs[I];
    const MachORelocation *Next = I + 1 < Relocs.size() ? &Relocs[I + 1] : nullptr;
    if (R->type == SUBTRACTOR) {
      if (Error E = GB.addSubtractorPair(S, *R, Next, Pair))
        return E;
      ++I;
      continue;
    }
    int64_t Addend = 0;
    if (R->type == ADDEND) {
      if (R->pcrel || R->external || R->length != 2)
        return GB.relocError(S, *R, "ADDEND must be 4 bytes, not extern, not PC-relative");
      if (!Next || (Next->type != BRANCH26 && Next->type != PAGE21 && Next->type != PAGEOFF12))
        return GB.relocError(S, *R, "ADDEND is not followed by a BRANCH26, PAGE21 or PAGEOFF12 relocation");
      if (Next->address != R->address)
        return GB.relocError(S, *R, "ADDEND and its paired relocation are at different addresses");
      Addend = int64_t(int32_t(R->symbolnum << 8) >> 8); // 24-bit signed
      R = Next;
      ++I;
    }
    auto BP = GB.blockToFix(S, *R);
    if (!BP)
      return BP.takeError();
    Block &B = **BP;
    uint32_t Off = uint32_t(S.address + R->address - B.address);
    const char *Loc = B.content().data() + Off;
    // arm64e signed pointers: only where nothing runs (debug sections) can a
    // link carry one, to fail at fixup as llvm-jitlink does; elsewhere they
    // would need signing in the executor.
    if (R->type == AUTHENTICATED_POINTER && S.graphSection->lifetime == MemLifetime::NoAlloc) {
      if (R->pcrel || !R->external || R->length != 3)
        return GB.relocError(S, *R, "AUTHENTICATED_POINTER must be 8 bytes, extern, not PC-relative");
      auto T = GB.symbolByIndex(S, *R, R->symbolnum);
      if (!T)
        return T.takeError();
      B.addEdge(Pointer64Authenticated, Off, **T, int64_t(int32_t(readLE<uint32_t>(Loc)))); // low 32 bits: the addend
      continue;
    }
    if (R->type == UNSIGNED) {
      if (R->pcrel || R->length < 2)
        return GB.relocError(S, *R, "UNSIGNED must be 4 or 8 bytes, not PC-relative");
      if (R->length == 2) {
        if (!R->external)
          return GB.relocError(S, *R, "a 4-byte UNSIGNED relocation must be extern");
        auto T = GB.symbolByIndex(S, *R, R->symbolnum);
        if (!T)
          return T.takeError();
        B.addEdge(Pointer32, Off, **T, readLE<uint32_t>(Loc));
      } else if (R->external) {
        auto T = GB.symbolByIndex(S, *R, R->symbolnum);
        if (!T)
          return T.takeError();
        B.addEdge(Pointer64, Off, **T, int64_t(readLE<uint64_t>(Loc)));
      } else { // section-relative: the bytes hold the target's address
        Addr Target = readLE<uint64_t>(Loc);
        auto T = GB.symbolByAddress(S, *R, R->symbolnum, Target);
        if (!T)
          return T.takeError();
        B.addEdge(Pointer64, Off, **T, int64_t(Target - (*T)->address()));
      }
      continue;
    }
    const Form *F = nullptr;
    for (const Form &C : Forms)
      if (C.type == R->type)
        F = &C;
    if (!F)
      return GB.relocError(S, *R,
                           R->type == AUTHENTICATED_POINTER ? "arm64e pointer authentication is not supported"
                                                            : "unsupported relocation type");
    if (F->pcrel != R->pcrel || F->external != R->external || F->length != R->length)
      return GB.relocError(
          S, *R, formatv("unsupported form (pcrel %d, extern %d, length %u)", R->pcrel, R->external, 1u << R->length));
    uint32_t Instr = readLE<uint32_t>(Loc);
    if (F->type == BRANCH26 && (Instr & 0x7fffffff) != 0x14000000)
      return GB.relocError(S, *R, formatv("instruction %s is not a B or BL with a zero offset", hex(Instr).c_str()));
    if ((F->type == PAGE21 || F->type == GOT_LOAD_PAGE21 || F->type == TLVP_LOAD_PAGE21) &&
        (Instr & 0xffffffe0) != 0x90000000)
      return GB.relocError(S, *R, formatv("instruction %s is not an ADRP with a zero offset", hex(Instr).c_str()));
    if (F->type == PAGEOFF12 && (Instr & 0x003ffc00))
      return GB.relocError(S, *R, formatv("instruction %s has a non-zero immediate", hex(Instr).c_str()));
    if ((F->type == GOT_LOAD_PAGEOFF12 || F->type == TLVP_LOAD_PAGEOFF12) && (Instr & 0xfffffc00) != 0xf9400000)
      return GB.relocError(S, *R, formatv("instruction %s is not a 64-bit LDR with a zero offset", hex(Instr).c_str()));
    auto T = GB.symbolByIndex(S, *R, R->symbolnum);
    if (!T)
      return T.takeError();
    B.addEdge(F->kind, Off, **T, Addend);
  }
  return Error::success();
}

void addPasses(LinkGraph &G, PassConfiguration &Config) {
  Config.prePrunePasses.push_back(splitCompactUnwind);
  Config.prePrunePasses.push_back([](LinkGraph &G) { return splitEHFrame(G, EhFrameEdgeKinds, MachOEHFrame); });
  addUnwindInfoPasses(Config);
  Config.postAllocationPasses.push_back(defineSectionRangeSymbols);
  Config.postPrunePasses.push_back(createGOTAndStubsPass(false));
}

Expected<std::unique_ptr<LinkGraph>> createGraph(const TargetInfo &T, std::string Name, GraphBuffer Buffer) {
  return MachOGraphBuilder::build(T, "arm64-apple-darwin", std::move(Name), std::move(Buffer), addRelocations);
}

} // namespace

extern const TargetInfo MachOArm64Target = {
    MachOFormat, AArch64Arch, macho::CPU_TYPE_ARM64, "arm64-apple-macosx", createGraph, addPasses, relocName};

} // namespace linklab
