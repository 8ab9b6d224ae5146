// Arm and Thumb instruction fields a linker writes (Arm ARM DDI 0406C, A8.8:
// B, BL/BLX, MOVW, MOVT): one decoder and one encoder per field, shared by
// the fixups in arm.cpp and jitlink-check's decode_operand. Decoders return
// the field as LLVM's disassembler reports the operand (a branch's byte
// offset from the PC as the instruction reads it, sign-extended).
#pragma once

#include "support/bits.h"

#include <cstdint>

namespace linklab::arm::fields {

constexpr uint32_t bits(uint32_t V, unsigned Lo, unsigned Width) { return (V >> Lo) & ((1u << Width) - 1); }
constexpr int64_t signExtend(uint64_t V, unsigned Bits) { return int64_t(V << (64 - Bits)) >> (64 - Bits); }

// Little-endian only (the row says so): an Arm instruction is one word, a
// Thumb-2 instruction two halfwords, the first (Hi) at the lower address.
inline uint32_t readArm(const char *P) { return readLE<uint32_t>(P); }
struct ThumbPair {
  uint16_t hi, lo;
};
inline ThumbPair readThumb(const char *P) { return {readLE<uint16_t>(P), readLE<uint16_t>(P + 2)}; }
inline void writeThumb(char *P, ThumbPair T) {
  writeLE<uint16_t>(P, T.hi);
  writeLE<uint16_t>(P + 2, T.lo);
}

// B/BL (cond != 1111) and BLX imm (cond == 1111, bit 24 = H): imm24 words.
constexpr bool isArmBranch(uint32_t I) { return (I & 0x0e000000) == 0x0a000000; }
constexpr bool isArmBlx(uint32_t I) { return (I & 0xfe000000) == 0xfa000000; }
constexpr int64_t decodeArmBranch(uint32_t I) {
  return signExtend(bits(I, 0, 24) << 2, 26) | (isArmBlx(I) ? bits(I, 24, 1) << 1 : 0);
}
// MOVW (A2) and MOVT (A1): imm4 at [19:16], imm12 at [11:0].
constexpr bool isArmMovw(uint32_t I) { return (I & 0x0ff00000) == 0x03000000; }
constexpr bool isArmMovt(uint32_t I) { return (I & 0x0ff00000) == 0x03400000; }
constexpr uint16_t decodeArmMov(uint32_t I) { return uint16_t(bits(I, 16, 4) << 12 | bits(I, 0, 12)); }
constexpr uint32_t encodeArmMov(uint32_t I, uint16_t V) { return (I & ~0x000f0fffu) | (V >> 12) << 16 | (V & 0xfff); }

// BL/BLX (T1/T2: Lo bit 12 = 1 for BL) and B.W (T4): S:I1:I2:imm10:imm11:0
// with I1 = !(J1 ^ S), I2 = !(J2 ^ S) (the v6T2+ "J1/J2" range).
constexpr bool isThumbCall(ThumbPair T) { return (T.hi & 0xf800) == 0xf000 && (T.lo & 0xc000) == 0xc000; }
constexpr bool isThumbJump24(ThumbPair T) { return (T.hi & 0xf800) == 0xf000 && (T.lo & 0xd000) == 0x9000; }
constexpr int64_t decodeThumbBranch(ThumbPair T) {
  uint32_t S = bits(T.hi, 10, 1), I1 = !(bits(T.lo, 13, 1) ^ S), I2 = !(bits(T.lo, 11, 1) ^ S);
  return signExtend(S << 24 | I1 << 23 | I2 << 22 | bits(T.hi, 0, 10) << 12 | bits(T.lo, 0, 11) << 1, 25);
}
constexpr ThumbPair encodeThumbBranch(ThumbPair T, int64_t V) {
  uint32_t S = bits(uint32_t(V), 24, 1), J1 = !bits(uint32_t(V), 23, 1) ^ S, J2 = !bits(uint32_t(V), 22, 1) ^ S;
  return {uint16_t((T.hi & 0xf800) | S << 10 | bits(uint32_t(V), 12, 10)),
          uint16_t((T.lo & 0xd000) | J1 << 13 | J2 << 11 | bits(uint32_t(V), 1, 11))};
}
// B<c>.W (T3; cond not 111x): S:J2:J1:imm6:imm11:0, J1/J2 taken as they are.
constexpr bool isThumbJump19(ThumbPair T) {
  return (T.hi & 0xf800) == 0xf000 && (T.lo & 0xd000) == 0x8000 && bits(T.hi, 7, 3) != 7;
}
constexpr int64_t decodeThumbJump19(ThumbPair T) {
  return signExtend(bits(T.hi, 10, 1) << 20 | bits(T.lo, 11, 1) << 19 | bits(T.lo, 13, 1) << 18 |
                        bits(T.hi, 0, 6) << 12 | bits(T.lo, 0, 11) << 1,
                    21);
}
constexpr ThumbPair encodeThumbJump19(ThumbPair T, int64_t V) {
  uint32_t U = uint32_t(V);
  return {uint16_t((T.hi & 0xfbc0) | bits(U, 20, 1) << 10 | bits(U, 12, 6)),
          uint16_t((T.lo & 0xd000) | bits(U, 18, 1) << 13 | bits(U, 19, 1) << 11 | bits(U, 1, 11))};
}
// MOVW (T3) / MOVT (T1): imm4 in Hi[3:0], i in Hi[10], imm3 in Lo[14:12], imm8 in Lo[7:0].
constexpr bool isThumbMovw(ThumbPair T) { return (T.hi & 0xfbf0) == 0xf240 && !(T.lo & 0x8000); }
constexpr bool isThumbMovt(ThumbPair T) { return (T.hi & 0xfbf0) == 0xf2c0 && !(T.lo & 0x8000); }
constexpr uint16_t decodeThumbMov(ThumbPair T) {
  return uint16_t(bits(T.hi, 0, 4) << 12 | bits(T.hi, 10, 1) << 11 | bits(T.lo, 12, 3) << 8 | bits(T.lo, 0, 8));
}
constexpr ThumbPair encodeThumbMov(ThumbPair T, uint16_t V) {
  return {uint16_t((T.hi & 0xfbf0) | bits(V, 12, 4) | bits(V, 11, 1) << 10),
          uint16_t((T.lo & 0x8f00) | bits(V, 8, 3) << 12 | bits(V, 0, 8))};
}

} // namespace linklab::arm::fields
