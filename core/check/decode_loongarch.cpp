// LoongArch decode for decode_operand/next_pc: the branch, PC-relative and
// 12-bit-immediate forms fixups write, read through arch/loongarch_fields.h
// (the fields the fixups encode with). Operands are LLVM MC's: registers
// first (rd, rj), then the immediate; branch offsets in bytes.
#include "arch/loongarch_fields.h"
#include "check/check.h"

namespace linklab::check {
namespace {

using namespace loongarch::fields;

Operand imm(int64_t V) { return Operand{true, V, ""}; }
Operand reg(uint32_t N) { return Operand{false, 0, formatv("r%u", N)}; }
uint32_t rd(uint32_t I) { return field(I, 0, 5); }
uint32_t rj(uint32_t I) { return field(I, 5, 5); }

struct Row {
  uint32_t opcode; // the bits above the fields, right-aligned
  unsigned shift;  // where the opcode starts
  const char *name;
};
// Bits [31:26]: B, BL (offs26); BEQZ, BNEZ (rj, offs21); JIRL and the
// compare branches (rd/rj, rj/rd, offs16).
constexpr Row Branches[] = {{0x14, 26, "B"},    {0x15, 26, "BL"},   {0x10, 26, "BEQZ"}, {0x11, 26, "BNEZ"},
                            {0x13, 26, "JIRL"}, {0x16, 26, "BEQ"},  {0x17, 26, "BNE"},  {0x18, 26, "BLT"},
                            {0x19, 26, "BGE"},  {0x1a, 26, "BLTU"}, {0x1b, 26, "BGEU"}};
// Bits [31:25]: rd, si20.
constexpr Row Si20[] = {{0x0a, 25, "LU12I_W"},   {0x0b, 25, "LU32I_D"},   {0x0c, 25, "PCADDI"},
                        {0x0d, 25, "PCALAU12I"}, {0x0e, 25, "PCADDU12I"}, {0x0f, 25, "PCADDU18I"}};
// Bits [31:22]: rd, rj, si12.
constexpr Row Si12[] = {{0x008, 22, "SLTI"},    {0x009, 22, "SLTUI"}, {0x00a, 22, "ADDI_W"}, {0x00b, 22, "ADDI_D"},
                        {0x00c, 22, "LU52I_D"}, {0x0a0, 22, "LD_B"},  {0x0a1, 22, "LD_H"},   {0x0a2, 22, "LD_W"},
                        {0x0a3, 22, "LD_D"},    {0x0a4, 22, "ST_B"},  {0x0a5, 22, "ST_H"},   {0x0a6, 22, "ST_W"},
                        {0x0a7, 22, "ST_D"},    {0x0a8, 22, "LD_BU"}, {0x0a9, 22, "LD_HU"},  {0x0aa, 22, "LD_WU"},
                        {0x0ac, 22, "FLD_S"},   {0x0ad, 22, "FST_S"}, {0x0ae, 22, "FLD_D"},  {0x0af, 22, "FST_D"}};

template <size_t N> const Row *find(const Row (&Rows)[N], uint32_t I) {
  for (const Row &R : Rows)
    if ((I >> R.shift) == R.opcode)
      return &R;
  return nullptr;
}

} // namespace

Expected<DecodedInst> decodeLoongArch(std::span<const uint8_t> Bytes) {
  if (Bytes.size() < 4)
    return makeError(formatv("loongarch: truncated instruction (%zu bytes)", Bytes.size()));
  uint32_t I = uint32_t(Bytes[0]) | uint32_t(Bytes[1]) << 8 | uint32_t(Bytes[2]) << 16 | uint32_t(Bytes[3]) << 24;
  DecodedInst D;
  D.size = 4;
  if (const Row *R = find(Branches, I)) {
    D.name = R->name;
    std::string_view N = R->name;
    if (N == "B" || N == "BL")
      D.operands = {imm(decodeB26(I))};
    else if (N == "BEQZ" || N == "BNEZ")
      D.operands = {reg(rj(I)), imm(decodeB21(I))};
    else if (N == "JIRL")
      D.operands = {reg(rd(I)), reg(rj(I)), imm(decodeB16(I))};
    else // compare branches list rj first
      D.operands = {reg(rj(I)), reg(rd(I)), imm(decodeB16(I))};
  } else if (const Row *R = find(Si20, I)) {
    D.name = R->name;
    D.operands = {reg(rd(I))};
    if (std::string_view(R->name) == "LU32I_D") // reads the register it writes
      D.operands.push_back(reg(rd(I)));
    D.operands.push_back(imm(decodeSi20(I)));
  } else if (const Row *R = find(Si12, I)) {
    D.name = R->name;
    D.operands = {reg(rd(I)), reg(rj(I)), imm(decodeSi12(I))};
  } else {
    return makeError(formatv("loongarch: 0x%08x is not an instruction form fixups use", I));
  }
  return D;
}

} // namespace linklab::check
