// LoongArch 64 (LA64, the LP64D psABI) and 32 (LA32, ILP32): edge kinds,
// fixups, GOT/stub builders and R_LARCH_ALIGN relaxation, shared by every
// object format and both widths (the graph's pointer size tells them apart).
// Kind names follow LLVM JITLink's loongarch.h so `-show-graphs` dumps line up.
//
// ISA and psABI quirks a linker meets here:
// - Every instruction is 4 bytes; immediates sit in odd places: branch
//   offsets (in words) are split, the low 16 bits at [25:10] and the rest
//   at [4:0] (B21) or [9:0] (B26); 20-bit upper immediates at [24:5];
//   12-bit lower immediates at [21:10].
// - `pcalau12i` is AArch64's `adrp` with a twist: it adds a 4 KiB page delta
//   to the PC's page, but the 12-bit offset the next instruction adds is
//   sign-extended, so the page is rounded up when bit 11 of the target is
//   set (PCALA_HI20 / GOT_PC_HI20 -> Page20).
// - Far calls are `pcaddu18i + jirl` (R_LARCH_CALL36): an 18-bit-shifted
//   upper part (rounded by 0x20000) and a 16-bit word offset.
// - Objects are built for linker relaxation: label differences become
//   ADD/SUB relocation pairs applied in turn to the bytes in place, and
//   R_LARCH_ALIGN marks NOP padding the linker trims after allocation. Its
//   addend is the padding size when it has no symbol, else
//   log2(alignment) | max-bytes << 8. R_LARCH_RELAX hints are accepted and
//   ignored (no instruction is relaxed), as in JITLink.
// - LA32 adds `pcaddu12i`-based pairs: PCADD_HI20 on the pcaddu12i (rounded
//   as Page20 is, but from the PC itself) and PCADD_LO12 on the next
//   instruction, whose symbol is the pcaddu12i's label (RISC-V's
//   PCREL_LO12 scheme); CALL30 is `pcaddu12i + jirl` with an unrounded
//   upper part and a 10-bit word offset. GOT entries are 4 bytes, stubs
//   `pcaddu12i; ld.w; jr`.
// - TLS relocations are not linked (named errors); no executor runs LoongArch.
#pragma once

#include "graph/link_graph.h"
#include "link/fixup.h"
#include "link/linker.h"
#include "target/target.h"

namespace linklab::loongarch {

// X(Name, Width, Doc): edge kinds in the order of their numbers; Width is
// the bytes the fixup writes from the edge's offset on (0: a ULEB128 or
// NOP run whose length the content gives). S = target address, A = addend,
// P = fixup address, Page(X) = X & ~0xfff.
#define LINKLAB_LOONGARCH_EDGE_KINDS(X)                                                                                \
  X(Pointer64, 8, "Fixup <- S + A : uint64")                                                                           \
  X(Pointer32, 4, "Fixup <- S + A : uint32")                                                                           \
  X(Branch16PCRel, 4, "offs16 [25:10] <- (S + A - P) >> 2 : int18, 4-aligned (beq/bne/blt...)")                        \
  X(Branch21PCRel, 4, "offs21 [25:10],[4:0] <- (S + A - P) >> 2 : int23, 4-aligned (beqz/bnez)")                       \
  X(Branch26PCRel, 4, "offs26 [25:10],[9:0] <- (S + A - P) >> 2 : int28, 4-aligned (b/bl)")                            \
  X(Delta32, 4, "Fixup <- S + A - P : int32")                                                                          \
  X(NegDelta32, 4, "Fixup <- P - S + A : int32 (.eh_frame CIE pointers)")                                              \
  X(Delta64, 8, "Fixup <- S + A - P : int64")                                                                          \
  X(Page20, 4, "si20 [24:5] <- (Page(S + A + 0x800) - Page(P)) >> 12 : int32 delta (pcalau12i)")                       \
  X(PageOffset12, 4, "si12 [21:10] <- (S + A) & 0xfff")                                                                \
  X(RequestGOTAndTransformToPage20, 4, "Page20 to a GOT entry for S (R_LARCH_GOT_PC_HI20)")                            \
  X(RequestGOTAndTransformToPageOffset12, 4, "PageOffset12 to a GOT entry for S (R_LARCH_GOT_PC_LO12)")                \
  X(PCAddHi20, 4, "si20 [24:5] <- (S + A - P + 0x800) >> 12 : int32 (pcaddu12i)")                                      \
  X(PCAddLo12, 4, "si12 [21:10] <- (T - S - A) & 0xfff, T: the PCAddHi20 at S + A, its S + A")                         \
  X(RequestGOTAndTransformToPCAddHi20, 4, "PCAddHi20 to a GOT entry for S (R_LARCH_GOT_PCADD_HI20)")                   \
  X(Call30PCRel, 8, "pcaddu12i si20 <- (S + A - P) >> 12; jirl offs16[9:0] <- (S + A - P)[11:2] : int32, 4-aligned")   \
  X(Call36PCRel, 8, "pcaddu18i si20 <- (S + A - P + 0x20000) >> 18; jirl offs16 <- (S + A - P) >> 2 : int38")          \
  X(Add6, 1, "Fixup[5:0] <- Fixup[5:0] + S + A, wrapping")                                                             \
  X(Add8, 1, "Fixup <- Fixup + S + A : 8 bits, wrapping")                                                              \
  X(Add16, 2, "Fixup <- Fixup + S + A : 16 bits, wrapping")                                                            \
  X(Add32, 4, "Fixup <- Fixup + S + A : 32 bits, wrapping")                                                            \
  X(Add64, 8, "Fixup <- Fixup + S + A : 64 bits, wrapping")                                                            \
  X(AddUleb128, 0, "ULEB128 in place <- Fixup + S + A, wrapping at its length")                                        \
  X(Sub6, 1, "Fixup[5:0] <- Fixup[5:0] - (S + A), wrapping")                                                           \
  X(Sub8, 1, "Fixup <- Fixup - (S + A) : 8 bits, wrapping")                                                            \
  X(Sub16, 2, "Fixup <- Fixup - (S + A) : 16 bits, wrapping")                                                          \
  X(Sub32, 4, "Fixup <- Fixup - (S + A) : 32 bits, wrapping")                                                          \
  X(Sub64, 8, "Fixup <- Fixup - (S + A) : 64 bits, wrapping")                                                          \
  X(SubUleb128, 0, "ULEB128 in place <- Fixup - (S + A), wrapping at its length")                                      \
  X(AlignRelaxable, 0, "R_LARCH_ALIGN: NOP padding at P, trimmed after allocation so the code after it is aligned")

enum EdgeKinds : EdgeKind {
  FirstKind = edge::FirstRelocation - 1,
#define LINKLAB_ENUM(N, W, D) N,
  LINKLAB_LOONGARCH_EDGE_KINDS(LINKLAB_ENUM)
#undef LINKLAB_ENUM
};

inline constexpr EhFrameKinds EhFrameEdgeKinds = {Delta32, Delta64, NegDelta32, Pointer32, Pointer64};

const char *edgeKindName(EdgeKind K);
unsigned edgeKindWidth(EdgeKind K);
Error applyFixup(LinkGraph &G, Block &B, const Edge &E);
// The padding bytes an AlignRelaxable edge's addend stands for (see above),
// or -1 if the addend is malformed.
int64_t alignPadding(const Edge &E);
// Post-prune GOT entries and stubs; post-allocation R_LARCH_ALIGN trimming.
void addDefaultPasses(LinkGraph &G, PassConfiguration &Config);
// A 12-byte stub jumping through the pointer at Pointer (clobbers $t8).
Symbol &createPointerJumpStub(LinkGraph &G, Section &Stubs, Symbol &Pointer);

} // namespace linklab::loongarch
