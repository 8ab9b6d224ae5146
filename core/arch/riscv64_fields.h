// RISC-V instruction immediate fields: one encoder and one decoder per
// instruction format, the single place that knows where each immediate's bits
// live (RISC-V Unprivileged ISA, "Base Instruction Formats" and "Compressed
// Instruction Formats"). The linker's fixups write through the encoders; the
// jitlink-check evaluator's decode_operand reads through the decoders.
//
// Encoders take the instruction as it is and the value to place, and return
// the instruction with only the immediate bits replaced (value bits outside
// the field are dropped: range checks are the caller's job). Decoders return
// the immediate as the instruction means it: sign-extended byte offsets for
// branches and jumps, the raw 20-bit field for U-type (as an assembler's
// operand, e.g. `auipc a0, 0x12345`), the sign-extended 12 bits for I/S-type.
#pragma once

#include <cstdint>

namespace linklab::riscv64 {

// Bits [Hi:Lo] of V, shifted down to bit 0.
constexpr uint32_t bitsOf(uint64_t V, unsigned Hi, unsigned Lo) {
  return uint32_t((V >> Lo) & ((uint64_t(1) << (Hi - Lo + 1)) - 1));
}
constexpr int64_t signExtend(uint64_t V, unsigned Width) {
  uint64_t M = uint64_t(1) << (Width - 1);
  V &= (M << 1) - 1;
  return int64_t(V ^ M) - int64_t(M);
}

// The %hi / %lo split of a 32-bit value: hi20 is rounded so that
// (hi20 << 12) + signExtend(lo12) == V, since lo12 is added sign-extended.
constexpr uint32_t hi20(int64_t V) { return bitsOf(uint64_t(V + 0x800), 31, 12); }
constexpr uint32_t lo12(int64_t V) { return bitsOf(uint64_t(V), 11, 0); }

// U-type (lui, auipc): imm[31:12] in insn[31:12].
constexpr uint32_t encodeUType(uint32_t Insn, uint32_t Hi20) { return (Insn & 0xfff) | (Hi20 << 12); }
constexpr uint32_t decodeUType(uint32_t Insn) { return Insn >> 12; }

// I-type (addi, loads, jalr): imm[11:0] in insn[31:20].
constexpr uint32_t encodeIType(uint32_t Insn, uint32_t Lo12) { return (Insn & 0xfffff) | (bitsOf(Lo12, 11, 0) << 20); }
constexpr int64_t decodeIType(uint32_t Insn) { return signExtend(Insn >> 20, 12); }

// S-type (stores): imm[11:5] in insn[31:25], imm[4:0] in insn[11:7].
constexpr uint32_t encodeSType(uint32_t Insn, uint32_t Lo12) {
  return (Insn & 0x01fff07f) | (bitsOf(Lo12, 11, 5) << 25) | (bitsOf(Lo12, 4, 0) << 7);
}
constexpr int64_t decodeSType(uint32_t Insn) {
  return signExtend((bitsOf(Insn, 31, 25) << 5) | bitsOf(Insn, 11, 7), 12);
}

// B-type (conditional branches), a 13-bit even offset:
// imm[12|10:5] in insn[31:25], imm[4:1|11] in insn[11:7].
constexpr uint32_t encodeBType(uint32_t Insn, int64_t Off) {
  uint64_t V = uint64_t(Off);
  return (Insn & 0x01fff07f) | (bitsOf(V, 12, 12) << 31) | (bitsOf(V, 10, 5) << 25) | (bitsOf(V, 4, 1) << 8) |
         (bitsOf(V, 11, 11) << 7);
}
constexpr int64_t decodeBType(uint32_t Insn) {
  return signExtend((bitsOf(Insn, 31, 31) << 12) | (bitsOf(Insn, 7, 7) << 11) | (bitsOf(Insn, 30, 25) << 5) |
                        (bitsOf(Insn, 11, 8) << 1),
                    13);
}

// J-type (jal), a 21-bit even offset: imm[20|10:1|11|19:12] in insn[31:12].
constexpr uint32_t encodeJType(uint32_t Insn, int64_t Off) {
  uint64_t V = uint64_t(Off);
  return (Insn & 0xfff) | (bitsOf(V, 20, 20) << 31) | (bitsOf(V, 10, 1) << 21) | (bitsOf(V, 11, 11) << 20) |
         (bitsOf(V, 19, 12) << 12);
}
constexpr int64_t decodeJType(uint32_t Insn) {
  return signExtend((bitsOf(Insn, 31, 31) << 20) | (bitsOf(Insn, 19, 12) << 12) | (bitsOf(Insn, 20, 20) << 11) |
                        (bitsOf(Insn, 30, 21) << 1),
                    21);
}

// CB (c.beqz, c.bnez), a 9-bit even offset:
// offset[8|4:3] in insn[12:10], offset[7:6|2:1|5] in insn[6:2].
constexpr uint16_t encodeCBType(uint16_t Insn, int64_t Off) {
  uint64_t V = uint64_t(Off);
  return uint16_t((Insn & 0xe383) | (bitsOf(V, 8, 8) << 12) | (bitsOf(V, 4, 3) << 10) | (bitsOf(V, 7, 6) << 5) |
                  (bitsOf(V, 2, 1) << 3) | (bitsOf(V, 5, 5) << 2));
}
constexpr int64_t decodeCBType(uint16_t Insn) {
  return signExtend((bitsOf(Insn, 12, 12) << 8) | (bitsOf(Insn, 11, 10) << 3) | (bitsOf(Insn, 6, 5) << 6) |
                        (bitsOf(Insn, 4, 3) << 1) | (bitsOf(Insn, 2, 2) << 5),
                    9);
}

// CJ (c.j, c.jal), a 12-bit even offset:
// offset[11|4|9:8|10|6|7|3:1|5] in insn[12:2].
constexpr uint16_t encodeCJType(uint16_t Insn, int64_t Off) {
  uint64_t V = uint64_t(Off);
  return uint16_t((Insn & 0xe003) | (bitsOf(V, 11, 11) << 12) | (bitsOf(V, 4, 4) << 11) | (bitsOf(V, 9, 8) << 9) |
                  (bitsOf(V, 10, 10) << 8) | (bitsOf(V, 6, 6) << 7) | (bitsOf(V, 7, 7) << 6) | (bitsOf(V, 3, 1) << 3) |
                  (bitsOf(V, 5, 5) << 2));
}
constexpr int64_t decodeCJType(uint16_t Insn) {
  return signExtend((bitsOf(Insn, 12, 12) << 11) | (bitsOf(Insn, 11, 11) << 4) | (bitsOf(Insn, 10, 9) << 8) |
                        (bitsOf(Insn, 8, 8) << 10) | (bitsOf(Insn, 7, 7) << 6) | (bitsOf(Insn, 6, 6) << 7) |
                        (bitsOf(Insn, 5, 3) << 1) | (bitsOf(Insn, 2, 2) << 5),
                    12);
}

// The rd field of any 32-bit instruction (jalr's link register).
constexpr uint32_t rdOf(uint32_t Insn) { return bitsOf(Insn, 11, 7); }
// A 32-bit instruction's low two bits are 0b11; anything else is compressed.
constexpr bool isCompressed(uint16_t FirstHalf) { return (FirstHalf & 3) != 3; }

// Encodings the relaxation pass writes.
inline constexpr uint32_t NopInsn = 0x00000013; // addi x0, x0, 0
inline constexpr uint16_t CNopInsn = 0x0001;    // c.nop
inline constexpr uint32_t JalOpcode = 0x6f;     // jal rd, 0 (rd in bits 11:7)
inline constexpr uint16_t CJInsn = 0xa001;      // c.j 0
inline constexpr uint16_t CJalInsn = 0x2001;    // c.jal 0 (RV32C only)

// Round trips, checked at compile time for each format's extreme values.
static_assert(decodeBType(encodeBType(0x63, -4096)) == -4096 && decodeBType(encodeBType(0x63, 4094)) == 4094);
static_assert(decodeJType(encodeJType(0x6f, -(1 << 20))) == -(1 << 20));
static_assert(decodeJType(encodeJType(0x6f, (1 << 20) - 2)) == (1 << 20) - 2);
static_assert(decodeCBType(encodeCBType(0xc001, -256)) == -256 && decodeCBType(encodeCBType(0xc001, 254)) == 254);
static_assert(decodeCJType(encodeCJType(CJInsn, -2048)) == -2048 && decodeCJType(encodeCJType(CJInsn, 2046)) == 2046);
static_assert(decodeSType(encodeSType(0x23, 0x801)) == -2047 && decodeIType(encodeIType(0x13, 0x7ff)) == 2047);

} // namespace linklab::riscv64
