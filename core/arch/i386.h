// i386 (IA-32, the System V i386 psABI): edge kinds, fixups, GOT/PLT
// builders, shared by every object format (names follow LLVM JITLink's
// i386.h so dumps line up).
//
// ISA and psABI quirks a linker meets here:
// - ELF i386 uses SHT_REL: addends live in the bytes being relocated (the
//   reader puts them on the edges, as JITLink does).
// - There is no PC-relative data addressing: position-independent code
//   finds its GOT through a register (%ebx by convention) loaded with
//   _GLOBAL_OFFSET_TABLE_ (R_386_GOTPC), then addresses data and GOT
//   entries relative to the GOT's start (GOTOFF, GOT32/GOT32X). The GOT pass
//   defines _GLOBAL_OFFSET_TABLE_ at the start of the graph's GOT.
// - A stub jumps through its GOT entry's absolute address (`jmp *abs32`);
//   it is bypassed when the real target is within a rel32 of the call.
// - Thread-local storage is variant II, as on x86-64: the block ends at the
//   thread pointer (%gs base), so TP offsets are negative. Local-exec
//   (TLS_LE, TLS_LE_32) and initial-exec (TLS_IE, TLS_GOTIE) are linked;
//   general-dynamic (TLS_GD, as libstdc++.a's PIC code uses it) and
//   local-dynamic (TLS_LDM with its TLS_LDO_32 offsets, as -fPIC code
//   reaches its own static thread_locals) are relaxed to local-exec as a
//   static linker does.
#pragma once

#include "graph/link_graph.h"
#include "link/fixup.h"
#include "link/linker.h"
#include "target/target.h"

namespace linklab::i386 {

// X(Name, Width, Doc): edge kinds in the order of their numbers; Width is
// the bytes the fixup writes from the edge's offset on. S = target, A =
// addend, P = fixup address, GOT = _GLOBAL_OFFSET_TABLE_, TPOFF(S) = S's
// (negative) offset from the thread pointer.
#define LINKLAB_I386_EDGE_KINDS(X)                                                                                     \
  X(None, 0, "no fixup")                                                                                               \
  X(Pointer32, 4, "Fixup <- S + A : uint32 (wrapping at 4 GiB, as addresses do)")                                      \
  X(PCRel32, 4, "Fixup <- S + A - P : int32")                                                                          \
  X(Pointer16, 2, "Fixup <- S + A : uint16")                                                                           \
  X(PCRel16, 2, "Fixup <- S + A - P : int16")                                                                          \
  X(Delta32, 4, "Fixup <- S + A - P : int32 (R_386_GOTPC)")                                                            \
  X(Delta32FromGOT, 4, "Fixup <- S + A - GOT : int32")                                                                 \
  X(RequestGOTAndTransformToDelta32FromGOT, 4, "Delta32FromGOT to a GOT entry for S")                                  \
  X(BranchPCRel32, 4, "Fixup <- S + A - P : int32 (calls)")                                                            \
  X(BranchPCRel32ToPtrJumpStub, 4, "BranchPCRel32 to a stub that is never bypassed")                                   \
  X(BranchPCRel32ToPtrJumpStubBypassable, 4, "BranchPCRel32 to a stub; bypassed when the real target is in range")     \
  X(NegDelta32, 4, "Fixup <- P - S + A : int32 (.eh_frame CIE pointers)")                                              \
  X(Size32, 4, "Fixup <- Size(S) + A : uint32")                                                                        \
  X(TPOff32, 4, "Fixup <- TPOFF(S) + A : int32 (R_386_TLS_LE, @ntpoff)")                                               \
  X(NegTPOff32, 4, "Fixup <- -(TPOFF(S) + A) : int32 (R_386_TLS_LE_32, @tpoff)")                                       \
  X(RequestTPOffGOTAndTransformToPointer32, 4, "Pointer32 to a GOT entry holding TPOFF(S) (R_386_TLS_IE)")             \
  X(RequestTPOffGOTAndTransformToDelta32FromGOT, 4, "Delta32FromGOT to a GOT entry holding TPOFF(S) (TLS_GOTIE)")      \
  X(TLSGDToLocalExec, 9, "leal x@tlsgd(,%ebx,1),%eax; call ___tls_get_addr -> movl %gs:0,%eax; subl $-TPOFF(S),%eax")  \
  X(TLSLDMToLocalExec, 9, "leal x@tlsldm(%ebx),%eax; call ___tls_get_addr -> movl %gs:0,%eax; nop; leal 0(%esi),%esi")

enum EdgeKinds : EdgeKind {
  FirstKind = edge::FirstRelocation - 1,
#define LINKLAB_ENUM(N, W, D) N,
  LINKLAB_I386_EDGE_KINDS(LINKLAB_ENUM)
#undef LINKLAB_ENUM
};

// .eh_frame's edge kinds (only the 32-bit ones occur).
inline constexpr EhFrameKinds EhFrameEdgeKinds = {PCRel32, edge::Invalid, NegDelta32, Pointer32, edge::Invalid};

const char *edgeKindName(EdgeKind K);
unsigned edgeKindWidth(EdgeKind K);
Error applyFixup(LinkGraph &G, Block &B, const Edge &E);
// Post-prune GOT/PLT, post-allocation _GLOBAL_OFFSET_TABLE_, pre-fixup stub bypass.
void addDefaultPasses(LinkGraph &G, PassConfiguration &Config);

} // namespace linklab::i386
