// AArch64: edge kinds, fixups, GOT/stub and TLS builders, shared by every
// object format. Names follow LLVM JITLink's aarch64.h where JITLink has the
// kind, so `-show-graphs` dumps diff cleanly against llvm-jitlink.
//
// ISA notes a linker meets: instructions are 4 bytes and 4-aligned, so every
// branch or literal field counts 4-byte units (imm26 = +-128MiB, imm19 =
// +-1MiB, imm14 = +-32KiB). Addresses are built in two steps: ADRP gives the
// 4KiB page of the target (+-4GiB from the PC's page) and a following ADD or
// LDR/STR supplies the low 12 bits - for a load or store that immediate is
// scaled by the access size, so the target must be aligned to it. Calls that
// may not reach go through a veneer; JITLink (and we) use a GOT-backed stub
// `adrp x16, got; ldr x16, [x16, :lo12:got]; br x16` (x16/IP0 is the
// intra-procedure-call scratch register the AAPCS64 reserves for this).
//
// Thread-local storage (TLS variant I, AAPCS64 / ELF for the Arm 64-bit
// architecture, "Thread-local storage"): TPIDR_EL0 (the thread pointer, TP)
// points at a 16-byte TCB; the TLS block follows it. TP offsets come from the
// session's TLS image (platform/tls_layout.h), or from this graph's TLS sections
// alone in a -noexec link: .tdata then .tbss blocks, each at its alignment,
// from TP + alignUp(16, alignment).
//
// Big-endian AArch64 (aarch64_be, ELFDATA2MSB objects): the psABI keeps
// instructions little-endian in either byte order, while data - ELF headers
// and relocations, pointers, deltas, GOT entries, TLS descriptors - is
// big-endian. Instruction fields are read and written little-endian here;
// data fixups go through FixupContext::putData in the graph's byte order.
#pragma once

#include "graph/link_graph.h"
#include "link/fixup.h"
#include "link/linker.h"
#include "target/target.h"

namespace linklab::aarch64 {

// X(Name, Width, Doc): edge kinds in the order of their numbers; Width is
// the bytes the fixup writes from the edge's offset on (an instruction
// field rewrites its whole 4-byte instruction). TPOFF(S) is S's
// thread-pointer offset (see the file comment).
#define LINKLAB_AARCH64_EDGE_KINDS(X)                                                                                  \
  X(Pointer64, 8, "Fixup <- Target + Addend : uint64")                                                                 \
  X(Pointer32, 4, "Fixup <- Target + Addend : uint32")                                                                 \
  X(Pointer16, 2, "Fixup <- Target + Addend : uint16 (or int16)")                                                      \
  X(Pointer64Authenticated, 8,                                                                                         \
    "arm64e signed pointer to Target + Addend: never applied (an error, as llvm-jitlink's)")                           \
  X(Delta64, 8, "Fixup <- Target - Fixup + Addend : int64")                                                            \
  X(Delta32, 4, "Fixup <- Target - Fixup + Addend : int32 (or uint32)")                                                \
  X(Delta16, 2, "Fixup <- Target - Fixup + Addend : int16 (or uint16)")                                                \
  X(NegDelta64, 8, "Fixup <- Fixup - Target + Addend : int64")                                                         \
  X(NegDelta32, 4, "Fixup <- Fixup - Target + Addend : int32")                                                         \
  X(Branch26PCRel, 4, "B/BL imm26 <- (Target - Fixup + Addend) >> 2 : int26, 4-aligned")                               \
  X(TestAndBranch14PCRel, 4, "TBZ/TBNZ imm14 <- (Target - Fixup + Addend) >> 2 : int14, 4-aligned")                    \
  X(CondBranch19PCRel, 4, "B.cond/CBZ/CBNZ imm19 <- (Target - Fixup + Addend) >> 2 : int19, 4-aligned")                \
  X(ADRLiteral21, 4, "ADR imm21 <- Target - Fixup + Addend : int21")                                                   \
  X(LDRLiteral19, 4, "LDR (literal) imm19 <- (Target - Fixup + Addend) >> 2 : int19, 4-aligned")                       \
  X(Page21, 4, "ADRP imm21 <- (Page(Target + Addend) - Page(Fixup)) >> 12 : int21")                                    \
  X(Page21NoCheck, 4, "Page21 without the range check (ADR_PREL_PG_HI21_NC)")                                          \
  X(PageOffset12, 4, "ADD/LDR/STR imm12 <- ((Target + Addend) & 0xfff) >> Scale, aligned to the access size")          \
  X(GotPageOffset15, 4, "LDR imm12 <- (Target + Addend - Page(GOT)) >> 3 : uint12, 8-aligned")                         \
  X(MoveWide16, 4, "MOVZ/MOVK imm16 <- (Target + Addend) >> Shift : uint16 (Shift from hw; no overflow check)")        \
  X(MoveWide16Checked, 4, "MoveWide16, and (Target + Addend) must fit in Shift + 16 bits")                             \
  X(RequestGOTAndTransformToPage21, 4, "Page21 to a GOT entry for Target")                                             \
  X(RequestGOTAndTransformToPageOffset12, 4, "PageOffset12 to a GOT entry for Target")                                 \
  X(RequestGOTAndTransformToPageOffset15, 4, "GotPageOffset15 to a GOT entry for Target")                              \
  X(RequestGOTAndTransformToDelta32, 4, "Delta32 to a GOT entry for Target")                                           \
  X(RequestGOTAndTransformToLDRLiteral19, 4, "LDRLiteral19 to a GOT entry for Target")                                 \
  X(TPOff64, 8, "Fixup <- TPOFF(Target) + Addend : uint64 (initial-exec GOT entries, TLS descriptors)")                \
  X(TPOffAddHi12, 4, "ADD imm12 (LSL #12) <- (TPOFF(Target) + Addend) >> 12 : uint12")                                 \
  X(TPOffAddLo12, 4, "ADD imm12 <- TPOFF(Target) + Addend : uint12")                                                   \
  X(TPOffAddLo12NoCheck, 4, "ADD imm12 <- (TPOFF(Target) + Addend) & 0xfff")                                           \
  X(TPOffMoveWide16, 4, "MOVZ/MOVK imm16 <- (TPOFF(Target) + Addend) >> Shift : uint16 (no overflow check)")           \
  X(TPOffMoveWide16Checked, 4, "TPOffMoveWide16, and the value must fit in Shift + 16 bits")                           \
  X(RequestTLVPAndTransformToPage21, 4, "Page21 to a GOT entry holding TPOFF(Target) (initial-exec)")                  \
  X(RequestTLVPAndTransformToPageOffset12, 4, "PageOffset12 to a GOT entry holding TPOFF(Target) (initial-exec)")      \
  X(RequestTLSDescEntryAndTransformToPage21, 4, "Page21 to a TLS descriptor {resolver, TPOFF(Target)}")                \
  X(RequestTLSDescEntryAndTransformToPageOffset12, 4, "PageOffset12 to a TLS descriptor {resolver, TPOFF(Target)}")

enum EdgeKinds : EdgeKind {
  FirstKind = edge::FirstRelocation - 1,
#define LINKLAB_ENUM(N, W, D) N,
  LINKLAB_AARCH64_EDGE_KINDS(LINKLAB_ENUM)
#undef LINKLAB_ENUM
};

// .eh_frame's edge kinds: PC-begin is PREL32 (Delta32), the CIE pointer a
// NegDelta32. The target registry row; the linker splits .eh_frame with them.
inline constexpr EhFrameKinds EhFrameEdgeKinds = {Delta32, Delta64, NegDelta32, Pointer32, Pointer64};

const char *edgeKindName(EdgeKind K);
// Bytes the fixup of K writes from the edge's offset on (the list's Width).
unsigned edgeKindWidth(EdgeKind K);
Error applyFixup(LinkGraph &G, Block &B, const Edge &E);
// Post-prune GOT/stub/TLS-descriptor builder.
void addDefaultPasses(LinkGraph &G, PassConfiguration &Config);
// That builder alone; DefineGOTSymbol: also define _GLOBAL_OFFSET_TABLE_ at
// the GOT when there is one (ELF's convention).
LinkGraphPass createGOTAndStubsPass(bool DefineGOTSymbol);

// An 8-byte GOT entry pointing at Target.
Symbol &createGOTEntry(LinkGraph &G, Section &GOT, Symbol &Target);
// The 12-byte `adrp x16; ldr x16; br x16` stub through GOT entry Pointer.
Symbol &createPointerJumpStub(LinkGraph &G, Section &Stubs, Symbol &Pointer);

} // namespace linklab::aarch64

namespace linklab {
// The registry rows (target/targets.def): little- and big-endian data.
extern const ArchRow AArch64Arch, AArch64BEArch;
} // namespace linklab
