// x86-64: edge kinds, fixups and GOT/PLT builders, shared by every object
// format (names follow LLVM JITLink's x86_64.h so dumps line up).
//
// ISA notes a linker meets: every PC-relative field is relative to the end of
// the instruction, which for the forms here is the end of the 4-byte field
// (hence BranchPCRel32's implicit -4). Code is position independent through
// RIP-relative addressing; the small code model keeps everything within
// +-2GiB, so a 32-bit displacement to a GOT entry or stub always fits when
// the JIT places its memory together, and the GOT/stub can often be bypassed
// (GOTPCRELX relaxation: mov -> lea, call *GOT -> addr32 call).
//
// Thread-local storage is variant II: the TLS block ends at the thread
// pointer (%fs base), so TP offsets are negative. A JIT link is static, so
// every dynamic TLS model is relaxed to local-exec: general- and
// local-dynamic call sequences are rewritten in place, and initial-exec GOT
// loads become immediates.
#pragma once

#include "graph/link_graph.h"
#include "link/fixup.h"
#include "link/linker.h"
#include "target/target.h"

namespace linklab::x86_64 {

// X(Name, Width, Doc): edge kinds in the order of their numbers. Width is
// the bytes the fixup writes from the edge's offset on (the TLS sequence
// rewrites also change the 4 or 3 bytes before it).
#define LINKLAB_X86_64_EDGE_KINDS(X)                                                                                   \
  X(Pointer64, 8, "Fixup <- Target + Addend : uint64")                                                                 \
  X(Pointer32, 4, "Fixup <- Target + Addend : uint32")                                                                 \
  X(Pointer32Signed, 4, "Fixup <- Target + Addend : int32")                                                            \
  X(Pointer16, 2, "Fixup <- Target + Addend : uint16")                                                                 \
  X(Pointer8, 1, "Fixup <- Target + Addend : uint8")                                                                   \
  X(Delta64, 8, "Fixup <- Target - Fixup + Addend : int64")                                                            \
  X(Delta32, 4, "Fixup <- Target - Fixup + Addend : int32")                                                            \
  X(Delta16, 2, "Fixup <- Target - Fixup + Addend : int16")                                                            \
  X(Delta8, 1, "Fixup <- Target - Fixup + Addend : int8")                                                              \
  X(NegDelta64, 8, "Fixup <- Fixup - Target + Addend : int64")                                                         \
  X(NegDelta32, 4, "Fixup <- Fixup - Target + Addend : int32")                                                         \
  X(Delta64FromGOT, 8, "Fixup <- Target - GOTBase + Addend : int64")                                                   \
  X(Size64, 8, "Fixup <- Size(Target) + Addend : uint64")                                                              \
  X(Size32, 4, "Fixup <- Size(Target) + Addend : uint32")                                                              \
  X(BranchPCRel32, 4, "Fixup <- Target - (Fixup + 4) + Addend : int32")                                                \
  X(BranchPCRel32ToPtrJumpStub, 4, "BranchPCRel32 to a stub that is never bypassed")                                   \
  X(BranchPCRel32ToPtrJumpStubBypassable, 4, "BranchPCRel32 to a stub; bypassed when the real target is in range")     \
  X(RequestGOTAndTransformToDelta32, 4, "Delta32 to a GOT entry for Target")                                           \
  X(RequestGOTAndTransformToDelta64, 8, "Delta64 to a GOT entry for Target")                                           \
  X(RequestGOTAndTransformToDelta64FromGOT, 8, "Delta64FromGOT to a GOT entry for Target")                             \
  X(PCRel32GOTLoadRelaxable, 4, "Delta32 to a GOT entry; mov/call/jmp may be relaxed to reach Target directly")        \
  X(RequestGOTAndTransformToPCRel32GOTLoadRelaxable, 4, "PCRel32GOTLoadRelaxable to a GOT entry for Target")           \
  X(PCRel32GOTLoadREXRelaxable, 4, "PCRel32GOTLoadRelaxable for REX-prefixed instructions")                            \
  X(RequestGOTAndTransformToPCRel32GOTLoadREXRelaxable, 4, "PCRel32GOTLoadREXRelaxable to a GOT entry for Target")     \
  X(TPOff32, 4, "Fixup <- TPOffset(Target) + Addend : int32 (local-exec TLS)")                                         \
  X(TPOff64, 8, "Fixup <- TPOffset(Target) + Addend : int64 (TP-offset GOT entries)")                                  \
  X(RequestTPOffGOTAndTransformToTPOffGOTLoadRelaxable, 4, "TPOffGOTLoadRelaxable to a TP-offset GOT entry")           \
  X(TPOffGOTLoadRelaxable, 4, "Delta32 to a TP-offset GOT entry; movq/addq may take TPOffset(Target) as an immediate") \
  X(TLSGDToLocalExec, 12, "general-dynamic sequence -> movq %fs:0,%rax; leaq TPOffset(Target)(%rax),%rax")             \
  X(TLSLDToLocalExec, 9, "local-dynamic call sequence rewritten to movq %fs:0,%rax")                                   \
  X(RequestTLVPAndTransformToPCRel32TLVPLoadREXRelaxable, 4,                                                           \
    "PCRel32TLVPLoadREXRelaxable to a GOT entry holding the address of Target's MachO TLV descriptor")                 \
  X(PCRel32TLVPLoadREXRelaxable, 4,                                                                                    \
    "Fixup <- Target - (Fixup + 4) + Addend : int32, Target a TLV descriptor's GOT entry")                             \
  X(PCRel32, 4, "Fixup <- Target - (Fixup + 4) + Addend : int32 (COFF REL32)")                                         \
  X(Pointer32NB, 4, "Fixup <- Target - __ImageBase + Addend : uint32 (COFF RVA; lowered to Pointer32 before fixup)")   \
  X(SectionOffset32, 4, "Fixup <- Target - SectionStart(Target) + Addend : uint32 (COFF SECREL; lowered to Pointer32)")

enum EdgeKinds : EdgeKind {
  FirstKind = edge::FirstRelocation - 1,
#define LINKLAB_ENUM(N, W, D) N,
  LINKLAB_X86_64_EDGE_KINDS(LINKLAB_ENUM)
#undef LINKLAB_ENUM
};

// .eh_frame's edge kinds (the target registry row; the linker splits
// .eh_frame with them).
inline constexpr EhFrameKinds EhFrameEdgeKinds = {Delta32, Delta64, NegDelta32, Pointer32, Pointer64};

const char *edgeKindName(EdgeKind K);
// Bytes the fixup of K writes from the edge's offset on (the list's Width).
unsigned edgeKindWidth(EdgeKind K);
Error applyFixup(LinkGraph &G, Block &B, const Edge &E);
// Pre-prune TLS relaxation, post-prune GOT/PLT, pre-fixup relaxation.
void addDefaultPasses(LinkGraph &G, PassConfiguration &Config);
// The GOT/PLT builder alone; DefineGOTSymbol: also define
// _GLOBAL_OFFSET_TABLE_ at the GOT when there is one (ELF's convention).
LinkGraphPass createGOTAndStubsPass(bool DefineGOTSymbol);
// Bypasses GOT entries and stubs whose target is within reach.
Error optimizeGOTAndStubAccesses(LinkGraph &G);

// An 8-byte GOT entry pointing at Target.
Symbol &createGOTEntry(LinkGraph &G, Section &GOT, Symbol &Target);
// A 6-byte `jmp *entry(%rip)` stub through the given pointer.
Symbol &createPointerJumpStub(LinkGraph &G, Section &Stubs, Symbol &Pointer);

} // namespace linklab::x86_64

namespace linklab {
// The registry row (target/targets.def).
extern const ArchRow X86_64Arch;
} // namespace linklab
