// LoongArch instruction fields a linker writes (LoongArch Reference Manual
// vol. 1, 1.2: formats): encoders for the fixups in loongarch.cpp, decoders
// for jitlink-check's decode_operand. Decoders give the operand as LLVM's
// disassembler does: branch offsets in bytes, immediates sign-extended.
#pragma once

#include <cstdint>

namespace linklab::loongarch::fields {

constexpr uint32_t field(uint64_t V, unsigned Lo, unsigned Width) { return uint32_t(V >> Lo) & ((1u << Width) - 1); }
// Replaces bits [Lo, Lo + Width) of I by V's low Width bits.
constexpr uint32_t put(uint32_t I, uint32_t V, unsigned Lo, unsigned Width) {
  uint32_t Mask = ((1u << Width) - 1) << Lo;
  return (I & ~Mask) | ((V << Lo) & Mask);
}
// Word offsets of branches: offs[15:0] at [25:10], the high part at [4:0]
// (21-bit) or [9:0] (26-bit).
constexpr uint32_t encodeB16(uint32_t I, int64_t Words) { return put(I, field(Words, 0, 16), 10, 16); }
constexpr uint32_t encodeB21(uint32_t I, int64_t Words) {
  return put(put(I, field(Words, 0, 16), 10, 16), field(Words, 16, 5), 0, 5);
}
constexpr uint32_t encodeB26(uint32_t I, int64_t Words) {
  return put(put(I, field(Words, 0, 16), 10, 16), field(Words, 16, 10), 0, 10);
}
constexpr uint32_t encodeSi20(uint32_t I, uint32_t V) { return put(I, V, 5, 20); }
constexpr uint32_t encodeSi12(uint32_t I, uint32_t V) { return put(I, V, 10, 12); }

constexpr int64_t signExtend(uint64_t V, unsigned Bits) { return int64_t(V << (64 - Bits)) >> (64 - Bits); }
constexpr int64_t decodeB16(uint32_t I) { return signExtend(uint64_t(field(I, 10, 16)) << 2, 18); }
constexpr int64_t decodeB21(uint32_t I) {
  return signExtend((uint64_t(field(I, 0, 5)) << 16 | field(I, 10, 16)) << 2, 23);
}
constexpr int64_t decodeB26(uint32_t I) {
  return signExtend((uint64_t(field(I, 0, 10)) << 16 | field(I, 10, 16)) << 2, 28);
}
constexpr int64_t decodeSi20(uint32_t I) { return signExtend(field(I, 5, 20), 20); }
constexpr int64_t decodeSi12(uint32_t I) { return signExtend(field(I, 10, 12), 12); }

} // namespace linklab::loongarch::fields
