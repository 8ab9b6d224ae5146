// RISC-V 64 (RV64GC, LP64/LP64D): edge kinds, fixups, GOT/stub builders,
// linker relaxation. Edge kinds are named after the ELF relocations, as LLVM
// JITLink's riscv.h names them, so `-show-graphs` dumps diff cleanly.
//
// ISA and psABI quirks a linker meets here:
// - No instruction holds a 32-bit immediate: addresses are built from a
//   20-bit upper part (lui/auipc) plus a 12-bit lower part that the second
//   instruction adds *sign-extended*, so the upper part is rounded (+0x800).
// - The PC-relative lower part (PCREL_LO12_*) does not name the data: its
//   symbol names the auipc instruction, and the value is taken from the
//   PCREL_HI20 / GOT_HI20 relocation found at that auipc's address.
// - Objects are built for linker relaxation (-mrelax): code size is not final
//   until the linker has run. R_RISCV_ALIGN marks NOP padding the linker must
//   trim so the next instruction is aligned, R_RISCV_RELAX marks the previous
//   relocation as relaxable (auipc+jalr -> jal / c.j). Every label difference
//   in code and debug/unwind data is therefore left to the linker as ADD/SUB
//   (or SET/SUB, SET_ULEB128/SUB_ULEB128) relocation pairs.
// - TLS is variant I with TP pointing at the start of the TLS block (no TCB
//   gap): a TLS symbol's TP offset is its offset within this graph's TLS image,
//   .tdata sections first, then .tbss sections, each block at its alignment.
#pragma once

#include "graph/link_graph.h"
#include "link/fixup.h"
#include "link/linker.h"
#include "target/target.h"

namespace linklab::riscv64 {

// X(Name, Width, Doc): edge kinds in the order of their numbers; Width is
// the bytes the fixup writes from the edge's offset on (0: none, or a
// ULEB128 or NOP run whose length the content gives). S = target address,
// A = addend, P = fixup address, TPOFF(S) = S's offset in the TLS image.
#define LINKLAB_RISCV64_EDGE_KINDS(X)                                                                                  \
  X(R_RISCV_32, 4, "Fixup <- S + A : uint32 or int32")                                                                 \
  X(R_RISCV_64, 8, "Fixup <- S + A : uint64")                                                                          \
  X(R_RISCV_BRANCH, 4, "B-type imm13 <- S + A - P : int13, even")                                                      \
  X(R_RISCV_JAL, 4, "J-type imm21 <- S + A - P : int21, even")                                                         \
  X(R_RISCV_CALL, 8, "auipc+jalr pair <- hi20/lo12 of S + A - P : int32 (after +0x800)")                               \
  X(R_RISCV_CALL_PLT, 8, "R_RISCV_CALL; external targets are routed through a stub")                                   \
  X(R_RISCV_GOT_HI20, 4, "R_RISCV_PCREL_HI20 to a GOT entry for S (lowered by the GOT builder)")                       \
  X(R_RISCV_PCREL_HI20, 4, "U-type hi20 <- S + A - P : int32 (after +0x800)")                                          \
  X(R_RISCV_PCREL_LO12_I, 4, "I-type lo12 <- low 12 bits of the value of the HI20 edge at address S")                  \
  X(R_RISCV_PCREL_LO12_S, 4, "S-type lo12 <- low 12 bits of the value of the HI20 edge at address S")                  \
  X(R_RISCV_HI20, 4, "U-type hi20 <- S + A : int32 (after +0x800)")                                                    \
  X(R_RISCV_LO12_I, 4, "I-type lo12 <- S + A")                                                                         \
  X(R_RISCV_LO12_S, 4, "S-type lo12 <- S + A")                                                                         \
  X(R_RISCV_ADD8, 1, "Fixup <- *Fixup + S + A : 8 bits, wrapping")                                                     \
  X(R_RISCV_ADD16, 2, "Fixup <- *Fixup + S + A : 16 bits, wrapping")                                                   \
  X(R_RISCV_ADD32, 4, "Fixup <- *Fixup + S + A : 32 bits, wrapping")                                                   \
  X(R_RISCV_ADD64, 8, "Fixup <- *Fixup + S + A : 64 bits, wrapping")                                                   \
  X(R_RISCV_SUB6, 1, "Fixup[5:0] <- *Fixup[5:0] - (S + A) : 6 bits, wrapping")                                         \
  X(R_RISCV_SUB8, 1, "Fixup <- *Fixup - (S + A) : 8 bits, wrapping")                                                   \
  X(R_RISCV_SUB16, 2, "Fixup <- *Fixup - (S + A) : 16 bits, wrapping")                                                 \
  X(R_RISCV_SUB32, 4, "Fixup <- *Fixup - (S + A) : 32 bits, wrapping")                                                 \
  X(R_RISCV_SUB64, 8, "Fixup <- *Fixup - (S + A) : 64 bits, wrapping")                                                 \
  X(R_RISCV_SET6, 1, "Fixup[5:0] <- S + A : 6 bits, wrapping")                                                         \
  X(R_RISCV_SET8, 1, "Fixup <- S + A : 8 bits, wrapping")                                                              \
  X(R_RISCV_SET16, 2, "Fixup <- S + A : 16 bits, wrapping")                                                            \
  X(R_RISCV_SET32, 4, "Fixup <- S + A : 32 bits, wrapping")                                                            \
  X(R_RISCV_32_PCREL, 4, "Fixup <- S + A - P : int32")                                                                 \
  X(R_RISCV_RVC_BRANCH, 2, "CB-type imm9 <- S + A - P : int9, even")                                                   \
  X(R_RISCV_RVC_JUMP, 2, "CJ-type imm12 <- S + A - P : int12, even")                                                   \
  X(R_RISCV_SET_ULEB128, 0, "ULEB128 in place <- (S + A) - (S' + A') of the SUB_ULEB128 edge at the same offset")      \
  X(R_RISCV_SUB_ULEB128, 0, "second half of a SET_ULEB128 pair (applied by its SET_ULEB128 edge)")                     \
  X(R_RISCV_TPREL_HI20, 4, "U-type hi20 <- TPOFF(S) + A : int32 (after +0x800)")                                       \
  X(R_RISCV_TPREL_LO12_I, 4, "I-type lo12 <- TPOFF(S) + A")                                                            \
  X(R_RISCV_TPREL_LO12_S, 4, "S-type lo12 <- TPOFF(S) + A")                                                            \
  X(R_RISCV_TPREL_ADD, 0, "marks the add of tp for relaxation; no bytes change")                                       \
  X(R_RISCV_TLS_GOT_HI20, 4, "R_RISCV_PCREL_HI20 to a GOT entry holding TPOFF(S) (lowered by the GOT builder)")        \
  X(R_RISCV_TLS_TPREL64, 8, "Fixup <- TPOFF(S) + A : uint64 (initial-exec GOT entries)")                               \
  X(R_RISCV_TLS_GD_HI20, 4,                                                                                            \
    "R_RISCV_PCREL_HI20 to a GOT pair {module 1, DTPREL(S)} for __tls_get_addr (lowered "                              \
    "by the GOT builder)")                                                                                             \
  X(R_RISCV_TLS_DTPREL64, 8,                                                                                           \
    "Fixup <- TPOFF(S) + A - 0x800 : uint64 (S's offset in the module's TLS block, "                                   \
    "less glibc's TLS_DTV_OFFSET)")                                                                                    \
  X(NegDelta32, 4, "Fixup <- P - S + A : int32 (.eh_frame CIE pointers)")                                              \
  X(CallRelaxable, 8, "R_RISCV_CALL_PLT followed by R_RISCV_RELAX; relaxed to R_RISCV_JAL or R_RISCV_RVC_JUMP")        \
  X(AlignRelaxable, 0, "R_RISCV_ALIGN: A bytes of NOPs at P, trimmed by relaxation so P + A lands aligned")            \
  X(R_RISCV_TLS_TPREL32, 4, "Fixup <- TPOFF(S) + A : int32 (RV32 initial-exec GOT entries)")                           \
  X(R_RISCV_TLS_DTPREL32, 4, "Fixup <- TPOFF(S) + A - 0x800 : int32 (R_RISCV_TLS_DTPREL64 on RV32)")

enum EdgeKinds : EdgeKind {
  FirstKind = edge::FirstRelocation - 1,
#define LINKLAB_ENUM(N, W, D) N,
  LINKLAB_RISCV64_EDGE_KINDS(LINKLAB_ENUM)
#undef LINKLAB_ENUM
};

// ELF e_flags bit: the object may contain compressed instructions, so
// relaxation may produce them too.
inline constexpr uint32_t EF_RISCV_RVC = 0x1;

// .eh_frame's edge kinds. RISC-V has no 64-bit PC-relative relocation, so
// delta64 is Invalid: clang never needs one there.
inline constexpr EhFrameKinds EhFrameEdgeKinds = {R_RISCV_32_PCREL, edge::Invalid, NegDelta32, R_RISCV_32, R_RISCV_64};

const char *edgeKindName(EdgeKind K);
// Bytes the fixup of K writes from the edge's offset on (the list's Width).
unsigned edgeKindWidth(EdgeKind K);

Error applyFixup(LinkGraph &G, Block &B, const Edge &E);
// Post-prune GOT/stubs, post-allocation relaxation (which also sorts every block's edges by offset).
void addDefaultPasses(LinkGraph &G, PassConfiguration &Config);

// An 8-byte GOT entry pointing at Target (Kind R_RISCV_64), or holding its TP
// offset (R_RISCV_TLS_TPREL64).
Symbol &createGOTEntry(LinkGraph &G, Section &GOT, Symbol &Target);
Symbol &createTLSGOTEntry(LinkGraph &G, Section &GOT, Symbol &Target);
// A general-dynamic pair {module id 1, DTPREL(Target)} of two pointer-sized words: the tls_index
// __tls_get_addr takes (a static program is TLS module 1).
Symbol &createTLSGDEntry(LinkGraph &G, Section &Pairs, Symbol &Target);
// A 16-byte stub jumping through the given GOT entry (clobbers t3).
Symbol &createPointerJumpStub(LinkGraph &G, Section &Stubs, Symbol &GOTEntry);

// Deletes R_RISCV_ALIGN padding and shortens relaxable calls, moving the
// symbols and edges behind them. Needs final block addresses (post-allocation)
// and sorts each block's edges by offset, which applyFixup relies on.
Error relax(LinkGraph &G);

} // namespace linklab::riscv64

namespace linklab {
// The registry row (target/targets.def).
extern const ArchRow RISCV64Arch;
} // namespace linklab
