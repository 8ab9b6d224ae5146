// PowerPC 64, little- and big-endian (ELFv2 ABI): edge kinds, fixups, the
// TOC and call stubs, shared by every object format and both byte orders. Kind names follow LLVM JITLink's
// ppc64.h so `-show-graphs` dumps line up.
//
// ISA and psABI quirks a linker meets here:
// - Immediates are 16 bits (D-form), so addresses are built from @ha / @l
//   halves: @ha is rounded (+0x8000) because the low half the next
//   instruction adds is signed. DS-form loads and stores (ld/std) keep the
//   low two bits of their immediate for the opcode, DQ-form (lxv/stxv) the
//   low four: @l with _DS, whose value must be aligned so (else an error).
// - Data is reached through r2, the TOC pointer: .TOC. sits 0x8000 past the
//   start of the GOT so a signed 16-bit offset covers 64 KiB of it. The
//   linker owns the GOT ($__GOT, first entry .TOC. itself, as ELFv2's GOT
//   header); the compiler's .toc (and .got/.sdata/.sbss/.plt) sections are
//   merged into it, and .toc entries that point outside the graph serve as
//   their targets' GOT entries.
// - A function has two entries: the global one sets r2 from r12, the local
//   one (st_other bits 5-7 give its offset) assumes r2 is set. Calls within
//   the graph (R_PPC64_REL24) go to the local entry; calls outside it go
//   through a stub that saves r2 at 24(r1), loads the target from its GOT
//   entry into r12 and jumps; the `nop` after the call becomes
//   `ld r2, 24(r1)` to restore the caller's TOC pointer.
// - Power10 code needs no TOC: 8-byte prefixed instructions (the prefix
//   word first, each word in the object's byte order) carry a 34-bit PC-relative offset
//   split 18 + 16 bits (R_PPC64_PCREL34, GOT_PCREL34), and its calls
//   (R_PPC64_REL24_NOTOC) always go through a stub that finds its own
//   address with `bcl` and loads the callee into r12 from the GOT: a
//   callee may need r12 to set up r2. R_PPC64_PCREL_OPT is a hint, skipped.
//   Calls through `pld r12, f@plt@pcrel` (R_PPC64_PLT_PCREL34[_NOTOC]) load
//   the callee from a GOT entry as GOT_PCREL34 does, and R_PPC64_D34* put an
//   absolute address (or its halves) in a 34-bit immediate: JITLink and
//   llvm-mc 22 know none of these four (GNU as emits them).
// - TLS: general-dynamic as JITLink links it: each variable a @got@tlsgd
//   operand names gets a 16-byte $__TLSINFO entry {0, &x} (the argument
//   __tls_get_addr receives; a platform would fill the first word with its
//   key), and R_PPC64_TLSGD, the marker on the call, is skipped.
//   Local-exec (@tprel: r13-relative, TPREL = offset in the TLS block -
//   0x7000) and initial-exec (@got@tprel: a GOT entry holding TPREL, the
//   R_PPC64_TLS marker on the `add` of r13 skipped) are linked as a static
//   linker links them (JITLink refuses them: TPREL34 by name, the others as
//   unsupported). Local-dynamic (R_PPC64_TLSLD) is refused with JITLink's
//   words; DTPREL* are unsupported, as there. No executor runs ppc64 code.
// - Big-endian: instructions are words in the data's byte order, so a
//   half16 field (the word's low half) sits 2 bytes into its word, where
//   the assembler's relocation points; stubs' edges are placed the same way.
#pragma once

#include "graph/link_graph.h"
#include "link/fixup.h"
#include "link/linker.h"
#include "target/target.h"

namespace linklab::ppc64 {

// X(Name, Width, Doc): edge kinds in the order of their numbers. S = target
// address, A = addend, P = fixup address, TOC = .TOC.; #lo = x & 0xffff,
// #hi = x >> 16, #ha = (x + 0x8000) >> 16, #higher(a) = bits 32-47 (rounded),
// #highest(a) = bits 48-63 (rounded). Half16 fields take S + A (Pointer),
// S + A - P (Delta) or S + A - TOC (TOCDelta), which must fit an int32 (the
// 64-bit forms excepted).
#define LINKLAB_PPC64_EDGE_KINDS(X)                                                                                    \
  X(Pointer64, 8, "Fixup <- S + A : uint64")                                                                           \
  X(Pointer32, 4, "Fixup <- S + A : uint32")                                                                           \
  X(Pointer16, 2, "half16 <- S + A")                                                                                   \
  X(Pointer16DS, 2, "half16 <- S + A, 4-aligned (16: DQ-form), keeping the low bits")                                  \
  X(Pointer16HA, 2, "half16 <- #ha(S + A)")                                                                            \
  X(Pointer16HI, 2, "half16 <- #hi(S + A)")                                                                            \
  X(Pointer16HIGH, 2, "half16 <- bits 16-31 of S + A")                                                                 \
  X(Pointer16HIGHA, 2, "half16 <- bits 16-31 of S + A + 0x8000")                                                       \
  X(Pointer16HIGHER, 2, "half16 <- bits 32-47 of S + A")                                                               \
  X(Pointer16HIGHERA, 2, "half16 <- bits 32-47 of S + A + 0x8000")                                                     \
  X(Pointer16HIGHEST, 2, "half16 <- bits 48-63 of S + A")                                                              \
  X(Pointer16HIGHESTA, 2, "half16 <- bits 48-63 of S + A + 0x8000")                                                    \
  X(Pointer16LO, 2, "half16 <- #lo(S + A)")                                                                            \
  X(Pointer16LODS, 2, "half16 <- #lo(S + A), 4-aligned (16: DQ-form), keeping the low bits")                           \
  X(Pointer14, 4, "BD field [15:2] <- S + A : int16, 4-aligned (absolute conditional branch)")                         \
  X(Delta64, 8, "Fixup <- S + A - P : int64")                                                                          \
  X(Delta34, 8, "prefixed si34 (prefix [17:0], suffix [15:0]) <- S + A - P : int34")                                   \
  X(Delta32, 4, "Fixup <- S + A - P : int32")                                                                          \
  X(NegDelta32, 4, "Fixup <- P - S + A : int32 (.eh_frame CIE pointers)")                                              \
  X(Delta16, 2, "half16 <- S + A - P")                                                                                 \
  X(Delta16HA, 2, "half16 <- #ha(S + A - P)")                                                                          \
  X(Delta16HI, 2, "half16 <- #hi(S + A - P)")                                                                          \
  X(Delta16LO, 2, "half16 <- #lo(S + A - P)")                                                                          \
  X(TOC, 8, "Fixup <- TOC : uint64")                                                                                   \
  X(TOCDelta16, 2, "half16 <- S + A - TOC")                                                                            \
  X(TOCDelta16DS, 2, "half16 <- S + A - TOC, 4-aligned (16: DQ-form), keeping the low bits")                           \
  X(TOCDelta16HA, 2, "half16 <- #ha(S + A - TOC)")                                                                     \
  X(TOCDelta16HI, 2, "half16 <- #hi(S + A - TOC)")                                                                     \
  X(TOCDelta16LO, 2, "half16 <- #lo(S + A - TOC)")                                                                     \
  X(TOCDelta16LODS, 2, "half16 <- #lo(S + A - TOC), 4-aligned (16: DQ-form), keeping the low bits")                    \
  X(RequestGOTAndTransformToDelta34, 8, "Delta34 to a GOT entry of its own (GOT_PCREL34, PLT_PCREL34*)")               \
  X(CallBranchDelta, 4, "bl LI [25:2] <- S + A - P : int26, 4-aligned")                                                \
  X(CallBranchDeltaRestoreTOC, 8, "CallBranchDelta; the nop after it becomes ld r2, 24(r1)")                           \
  X(RequestCall, 4, "R_PPC64_REL24: CallBranchDelta to a local entry, or through a TOC-saving stub (lowered)")         \
  X(RequestCallNoTOC, 4, "R_PPC64_REL24_NOTOC: CallBranchDelta to a stub that sets r12 without a TOC (lowered)")       \
  X(RequestTLSDescInGOTAndTransformToTOCDelta16HA, 2, "TOCDelta16HA to S's $__TLSINFO entry (GOT_TLSGD16_HA)")         \
  X(RequestTLSDescInGOTAndTransformToTOCDelta16LO, 2, "TOCDelta16LO to S's $__TLSINFO entry (GOT_TLSGD16_LO)")         \
  X(RequestTLSDescInGOTAndTransformToDelta34, 8, "Delta34 to S's $__TLSINFO entry (GOT_TLSGD_PCREL34)")                \
  X(Pointer34, 8, "prefixed si34 <- S + A : int34 (R_PPC64_D34; this and the next 3: not in JITLink)")                 \
  X(Pointer34LO, 8, "prefixed si34 <- bits 0-33 of S + A")                                                             \
  X(Pointer34HI30, 8, "prefixed si34 <- (S + A) >> 34")                                                                \
  X(Pointer34HA30, 8, "prefixed si34 <- (S + A + 2^33) >> 34 (rounded: the low part is signed)")                       \
  X(TPRel16, 2, "half16 <- TPREL : int16 (TPREL = TPOFF(S) + A - 0x7000; the TP kinds: not in JITLink)")               \
  X(TPRel16DS, 2, "half16 <- TPREL : int16, 4-aligned, keeping the low bits")                                          \
  X(TPRel16HA, 2, "half16 <- #ha(TPREL)")                                                                              \
  X(TPRel16HI, 2, "half16 <- #hi(TPREL)")                                                                              \
  X(TPRel16LO, 2, "half16 <- #lo(TPREL)")                                                                              \
  X(TPRel16LODS, 2, "half16 <- #lo(TPREL), 4-aligned, keeping the low bits")                                           \
  X(TPRel16HIGH, 2, "half16 <- bits 16-31 of TPREL")                                                                   \
  X(TPRel16HIGHA, 2, "half16 <- bits 16-31 of TPREL + 0x8000")                                                         \
  X(TPRel16HIGHER, 2, "half16 <- bits 32-47 of TPREL")                                                                 \
  X(TPRel16HIGHERA, 2, "half16 <- bits 32-47 of TPREL + 0x8000")                                                       \
  X(TPRel16HIGHEST, 2, "half16 <- bits 48-63 of TPREL")                                                                \
  X(TPRel16HIGHESTA, 2, "half16 <- bits 48-63 of TPREL + 0x8000")                                                      \
  X(TPRel34, 8, "prefixed si34 <- TPREL : int34 (paddi rt, r13, x@tprel)")                                             \
  X(TPRel64, 8, "Fixup <- TPREL : int64 (data; initial-exec GOT entries)")                                             \
  X(RequestGOTTPRelAndTransformToTOCDelta16DS, 2, "TOCDelta16DS to a GOT entry holding TPREL (GOT_TPREL16_DS)")        \
  X(RequestGOTTPRelAndTransformToTOCDelta16LODS, 2, "TOCDelta16LODS to a GOT entry holding TPREL (_LO_DS)")            \
  X(RequestGOTTPRelAndTransformToTOCDelta16HI, 2, "TOCDelta16HI to a GOT entry holding TPREL (GOT_TPREL16_HI)")        \
  X(RequestGOTTPRelAndTransformToTOCDelta16HA, 2, "TOCDelta16HA to a GOT entry holding TPREL (GOT_TPREL16_HA)")        \
  X(RequestGOTTPRelAndTransformToDelta34, 8, "Delta34 to a GOT entry holding TPREL (GOT_TPREL_PCREL34)")               \
  X(Delta14, 4, "BD field [15:2] <- S + A - P : int16, 4-aligned (bc; R_PPC64_REL14*: not in JITLink)")                \
  X(Pointer24, 4, "LI field [25:2] <- S + A : int26, 4-aligned (ba/bla; R_PPC64_ADDR24: not in JITLink)")

enum EdgeKinds : EdgeKind {
  FirstKind = edge::FirstRelocation - 1,
#define LINKLAB_ENUM(N, W, D) N,
  LINKLAB_PPC64_EDGE_KINDS(LINKLAB_ENUM)
#undef LINKLAB_ENUM
};

inline constexpr EhFrameKinds EhFrameEdgeKinds = {Delta32, Delta64, NegDelta32, Pointer32, Pointer64};

// .TOC. is this far past the start of the GOT (ELFv2 ABI 3.3).
inline constexpr uint64_t TOCBaseOffset = 0x8000;
// The thread pointer (r13) is this far past the start of the static TLS
// block (ELFv2 ABI "Thread Local Storage": TLS variant I, TCB before the
// block), so a variable's TPREL is its offset in the block less this.
inline constexpr int64_t TPBias = 0x7000;

const char *edgeKindName(EdgeKind K);
unsigned edgeKindWidth(EdgeKind K);
Error applyFixup(LinkGraph &G, Block &B, const Edge &E);
// The byte offset of a function's local entry from its global one, from
// st_other bits 5-7 (ELFv2 ABI 3.4.1).
inline uint64_t localEntryOffset(uint8_t StOther) { return ((uint64_t(1) << ((StOther >> 5) & 7)) >> 2) << 2; }
// Post-prune GOT/TOC and call stubs, post-allocation .TOC.
void addDefaultPasses(LinkGraph &G, PassConfiguration &Config);

} // namespace linklab::ppc64
