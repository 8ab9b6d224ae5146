// 32-bit Arm (AArch32: the Arm and Thumb instruction sets, the Arm ELF
// psABI "AAELF32"): edge kinds, fixups, GOT and stub builders, shared by every
// object format. Kind names follow LLVM JITLink's aarch32.h so dumps line up.
//
// ISA and psABI quirks a linker meets here:
// - Two instruction sets. A Thumb function's symbol value has bit 0 set (the
//   "T" bit); the graph keeps the even address and marks the symbol Thumb.
//   Addresses handed to other graphs and to lookups carry the bit again (as
//   ORC does), so `bx`/`blx` through them switch state. Relocations the
//   psABI writes as "(S + A) | T" (ABS32, REL32, PREL31, MOVW) put it back.
// - ELF uses SHT_REL: addends live in the instruction or data bits being
//   relocated, in each instruction's own encoding; the reader decodes them
//   (and checks the opcode the relocation expects) into the edge's addend.
// - The PC reads as the instruction's address + 8 (Arm) or + 4 (Thumb); the
//   assembler already put that bias in the addend (-8 / -4).
// - Calls switch state by rewriting the instruction: an Arm BL to a Thumb
//   function becomes BLX (its H bit gives offset bit 1), a Thumb BL to an Arm
//   function becomes BLX, whose offset counts from the PC aligned down to 4.
//   Plain branches (B, B.W) cannot switch: they go through a stub, as do
//   branches to symbols outside the graph (their range and state unknown).
// - Stubs are v7 "movw r12 / movt r12 / bx r12" sequences (only ip is
//   clobbered, as AAPCS allows for veneers), in the caller's instruction set.
// - .ARM.exidx (EHABI unwind index) entries point at their functions with
//   PREL31; the sections are kept alive whole, as JITLink keeps them.
// - TLS is variant I with an 8-byte TCB at the thread pointer (TPIDRURO):
//   the TLS block starts at TP + 8 (glibc's tcb_offset, for blocks aligned
//   to at most 8). Local-exec (TLS_LE32) is a data word holding the TP
//   offset; initial-exec (TLS_IE32) a PC-relative word to a GOT entry
//   holding it; general- and local-dynamic (TLS_GD32, TLS_LDM32 + LDO32)
//   GOT pairs {module 1, offset in the block} for __tls_get_addr, as a
//   static linker leaves them.
#pragma once

#include "graph/link_graph.h"
#include "link/fixup.h"
#include "link/linker.h"
#include "target/target.h"

namespace linklab::arm {

// X(Name, Width, Doc): edge kinds in the order of their numbers; Width is
// the bytes the fixup writes from the edge's offset on. S = target, A =
// addend, P = fixup address, T = 1 for a Thumb function defined in the graph
// (an external's address already carries it), GOT = _GLOBAL_OFFSET_TABLE_.
#define LINKLAB_ARM_EDGE_KINDS(X)                                                                                      \
  X(None, 0, "no fixup (R_ARM_NONE, R_ARM_V4BX)")                                                                      \
  X(Data_Delta32, 4, "Fixup <- ((S + A) | T) - P : int32")                                                             \
  X(Data_Pointer32, 4, "Fixup <- (S + A) | T : uint32")                                                                \
  X(Data_PRel31, 4, "Fixup[30:0] <- ((S + A) | T) - P : int31; bit 31 kept")                                           \
  X(Data_RequestGOTAndTransformToDelta32, 4, "Data_Delta32 to a GOT entry for S (R_ARM_GOT_PREL)")                     \
  X(Data_Delta32FromGOT, 4, "Fixup <- S + A - GOT : int32")                                                            \
  X(Data_RequestGOTAndTransformToDelta32FromGOT, 4, "Data_Delta32FromGOT to a GOT entry for S (R_ARM_GOT_BREL)")       \
  X(Arm_Call, 4, "BL/BLX imm24 <- (S + A - P) >> 2 : int26; BL <-> BLX by T, H bit from bit 1")                        \
  X(Arm_Jump24, 4, "B<cond>/BL<cond> imm24 <- (S + A - P) >> 2 : int26; Arm targets only")                             \
  X(Arm_MovwAbsNC, 4, "MOVW imm16 <- ((S + A) | T)[15:0]")                                                             \
  X(Arm_MovtAbs, 4, "MOVT imm16 <- (S + A)[31:16]")                                                                    \
  X(Arm_MovwPrelNC, 4, "MOVW imm16 <- (((S + A) | T) - P)[15:0]")                                                      \
  X(Arm_MovtPrel, 4, "MOVT imm16 <- (S + A - P)[31:16]")                                                               \
  X(Thumb_Call, 4, "BL/BLX imm24 (J1/J2) <- S + A - P : int25; BL <-> BLX by T, BLX from Align(P, 4)")                 \
  X(Thumb_Jump24, 4, "B.W imm24 (J1/J2) <- S + A - P : int25; Thumb targets only")                                     \
  X(Thumb_MovwAbsNC, 4, "MOVW (T3) imm16 <- ((S + A) | T)[15:0]")                                                      \
  X(Thumb_MovtAbs, 4, "MOVT (T1) imm16 <- (S + A)[31:16]")                                                             \
  X(Thumb_MovwPrelNC, 4, "MOVW (T3) imm16 <- (((S + A) | T) - P)[15:0]")                                               \
  X(Thumb_MovtPrel, 4, "MOVT (T1) imm16 <- (S + A - P)[31:16]")                                                        \
  X(Thumb_Jump19, 4, "B<c>.W (T3) imm20 (J1/J2) <- S + A - P : int21; Thumb targets only")                             \
  X(Data_TPOff32, 4, "Fixup <- TPOFF(S) + A : int32 (R_ARM_TLS_LE32)")                                                 \
  X(Data_DTPOff32, 4, "Fixup <- TPOFF(S) - 8 + A : int32, the offset in the TLS block (R_ARM_TLS_LDO32)")              \
  X(Data_RequestTPOffGOTAndTransformToDelta32, 4, "Data_Delta32 to a GOT entry holding TPOFF(S) (R_ARM_TLS_IE32)")     \
  X(Data_RequestTLSGDPairAndTransformToDelta32, 4, "Data_Delta32 to a GOT pair {1, DTPOFF(S)} (R_ARM_TLS_GD32)")       \
  X(Data_RequestTLSLDMPairAndTransformToDelta32, 4, "Data_Delta32 to the GOT pair {1, 0} (R_ARM_TLS_LDM32)")

enum EdgeKinds : EdgeKind {
  FirstKind = edge::FirstRelocation - 1,
#define LINKLAB_ENUM(N, W, D) N,
  LINKLAB_ARM_EDGE_KINDS(LINKLAB_ENUM)
#undef LINKLAB_ENUM
};

// Symbol::targetFlags bit: the symbol is Thumb code.
inline constexpr uint8_t ThumbSymbol = 1;

// Bytes of the thread control block at the thread pointer, before the TLS
// block (glibc's tcbhead_t: the DTV pointer and a private word).
inline constexpr int64_t TCBSize = 8;

// .eh_frame's edge kinds (EHABI objects rarely have one; only 32-bit kinds).
inline constexpr EhFrameKinds EhFrameEdgeKinds = {Data_Delta32, edge::Invalid, edge::Invalid, Data_Pointer32,
                                                  edge::Invalid};

const char *edgeKindName(EdgeKind K);
unsigned edgeKindWidth(EdgeKind K);
Error applyFixup(LinkGraph &G, Block &B, const Edge &E);
// The addend a REL relocation of kind K keeps in the 4 bytes at Loc. Fails
// naming the instruction K expects if the bytes are not one.
Expected<int64_t> implicitAddend(EdgeKind K, const char *Loc);
// Post-prune GOT entries and stubs (externals, Arm/Thumb interworking),
// _GLOBAL_OFFSET_TABLE_.
void addDefaultPasses(LinkGraph &G, PassConfiguration &Config);
// Branches through stubs made direct where their target is in range (what a
// static link of a C runtime does: glibc's Thumb syscall helper takes its
// number in ip, which a veneer clobbers).
void addDirectBranches(LinkGraph &G, PassConfiguration &Config);
// A stub jumping through the 4-byte pointer at Pointer (IFUNC lowering; Arm
// code, clobbers ip).
Symbol &createPointerJumpStub(LinkGraph &G, Section &Stubs, Symbol &Pointer);
// The name JITLink gives its v7 stubs section (so dumps line up).
inline constexpr const char *ArmStubsSectionName = "__llvm_jitlink_aarch32_STUBS_v7";

} // namespace linklab::arm
