// AArch64 instruction fields a linker writes: one encoder and one decoder per
// field, the only place in linklab that knows where each field lives (the
// fixups in aarch64.cpp and jitlink-check's decode_operand both use these).
//
// Encoders take the field value already scaled (e.g. a branch offset in
// instructions, not bytes) and return the instruction with the field
// replaced; the caller range-checks first. Decoders return the field value as
// the instruction's operand, sign-extended where the field is signed, in the
// same units (as LLVM's disassembler reports it).
//
// Bit layouts are from the Arm ARM (DDI 0487), "A64 Instruction Set Encoding".
#pragma once

#include <cstdint>

namespace linklab::aarch64::fields {

// Bits [Lo, Lo+Width) of V, and V with those bits replaced.
constexpr uint32_t getBits(uint32_t V, unsigned Lo, unsigned Width) { return (V >> Lo) & ((1u << Width) - 1); }
constexpr uint32_t setBits(uint32_t V, unsigned Lo, unsigned Width, uint64_t Field) {
  uint32_t Mask = ((1u << Width) - 1) << Lo;
  return (V & ~Mask) | ((uint32_t(Field) << Lo) & Mask);
}
constexpr int64_t signExtend(uint64_t V, unsigned Bits) { return int64_t(V << (64 - Bits)) >> (64 - Bits); }

// --- instruction classes (opcode bits with the operand fields masked) -------
// B / BL imm26.
constexpr bool isBranch26(uint32_t I) { return (I & 0x7c000000) == 0x14000000; }
// B.cond imm19 (and BC.cond).
constexpr bool isCondBranch19(uint32_t I) { return (I & 0xff000000) == 0x54000000; }
// CBZ / CBNZ imm19.
constexpr bool isCompareBranch19(uint32_t I) { return (I & 0x7e000000) == 0x34000000; }
// TBZ / TBNZ imm14.
constexpr bool isTestBranch14(uint32_t I) { return (I & 0x7e000000) == 0x36000000; }
// LDR (literal), LDRSW (literal), PRFM (literal), incl. FP/SIMD forms.
constexpr bool isLoadLiteral19(uint32_t I) { return (I & 0x3b000000) == 0x18000000; }
// ADR (op=0) / ADRP (op=1).
constexpr bool isAdr(uint32_t I) { return (I & 0x9f000000) == 0x10000000; }
constexpr bool isAdrp(uint32_t I) { return (I & 0x9f000000) == 0x90000000; }
// ADD/ADDS/SUB/SUBS (immediate), 32 and 64 bit.
constexpr bool isAddSubImm12(uint32_t I) { return (I & 0x1f800000) == 0x11000000; }
// LDR/STR (unsigned immediate), all sizes, GPR and FP/SIMD.
constexpr bool isLoadStoreImm12(uint32_t I) { return (I & 0x3b000000) == 0x39000000; }
// MOVN / MOVZ / MOVK.
constexpr bool isMoveWide(uint32_t I) { return (I & 0x1f800000) == 0x12800000; }

// --- B / BL: imm26 at [25:0], offset in 4-byte units ------------------------
constexpr uint32_t encodeBranch26(uint32_t I, int64_t Units) { return setBits(I, 0, 26, uint64_t(Units)); }
constexpr int64_t decodeBranch26(uint32_t I) { return signExtend(getBits(I, 0, 26), 26); }

// --- B.cond, CBZ/CBNZ, LDR literal: imm19 at [23:5], 4-byte units ----------
constexpr uint32_t encodeImm19(uint32_t I, int64_t Units) { return setBits(I, 5, 19, uint64_t(Units)); }
constexpr int64_t decodeImm19(uint32_t I) { return signExtend(getBits(I, 5, 19), 19); }

// --- TBZ/TBNZ: imm14 at [18:5] (4-byte units); bit number b5:b40 -----------
constexpr uint32_t encodeTestBranch14(uint32_t I, int64_t Units) { return setBits(I, 5, 14, uint64_t(Units)); }
constexpr int64_t decodeTestBranch14(uint32_t I) { return signExtend(getBits(I, 5, 14), 14); }
constexpr unsigned decodeTestBitNumber(uint32_t I) { return (getBits(I, 31, 1) << 5) | getBits(I, 19, 5); }

// --- ADR/ADRP: 21-bit immhi:immlo, immlo at [30:29], immhi at [23:5] --------
// ADR: bytes; ADRP: 4 KiB pages.
constexpr uint32_t encodeAdrImm21(uint32_t I, int64_t V) {
  return setBits(setBits(I, 29, 2, uint64_t(V)), 5, 19, uint64_t(V) >> 2);
}
constexpr int64_t decodeAdrImm21(uint32_t I) { return signExtend((getBits(I, 5, 19) << 2) | getBits(I, 29, 2), 21); }

// --- ADD/SUB (immediate): imm12 at [21:10], sh at [22] (LSL #12) ------------
constexpr uint32_t encodeAddImm12(uint32_t I, uint64_t V) { return setBits(I, 10, 12, V); }
constexpr uint32_t decodeAddImm12(uint32_t I) { return getBits(I, 10, 12); }
constexpr bool decodeAddShift12(uint32_t I) { return getBits(I, 22, 1) != 0; }

// --- LDR/STR (unsigned immediate): imm12 at [21:10], scaled by access size --
// log2 of the access size: size at [31:30]; the 128-bit FP/SIMD form (size=00,
// V=1, opc<1>=1) scales by 16.
constexpr unsigned loadStoreScale(uint32_t I) {
  unsigned Size = getBits(I, 30, 2);
  bool Vector = getBits(I, 26, 1), Opc1 = getBits(I, 23, 1);
  return Size == 0 && Vector && Opc1 ? 4 : Size;
}
// V is the unscaled byte offset's scaled value (offset >> loadStoreScale).
constexpr uint32_t encodeLoadStoreImm12(uint32_t I, uint64_t Scaled) { return setBits(I, 10, 12, Scaled); }
constexpr uint32_t decodeLoadStoreImm12(uint32_t I) { return getBits(I, 10, 12); }

// --- MOVZ/MOVN/MOVK: imm16 at [20:5], hw at [22:21] (shift = 16*hw) ---------
constexpr uint32_t encodeMoveWideImm16(uint32_t I, uint64_t V) { return setBits(I, 5, 16, V); }
constexpr uint32_t decodeMoveWideImm16(uint32_t I) { return getBits(I, 5, 16); }
constexpr unsigned decodeMoveWideShift(uint32_t I) { return getBits(I, 21, 2) * 16; }
// MOVZ <-> MOVN: opc at [30:29] is 10 for MOVZ, 00 for MOVN.
constexpr uint32_t makeMovz(uint32_t I) { return setBits(I, 29, 2, 2); }
constexpr uint32_t makeMovn(uint32_t I) { return setBits(I, 29, 2, 0); }

} // namespace linklab::aarch64::fields
