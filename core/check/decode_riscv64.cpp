// RISC-V decode for decode_operand/next_pc: the base formats whose
// immediates fixups write (U, I, S, B, J) and the compressed branches and
// jumps, with immediates read through arch/riscv64_fields.h (shared with the
// fixups). Operand order is LLVM MC's: rd first, then rs1, rs2, immediate;
// stores are (rs2, rs1, imm); branches (rs1, rs2, imm); U-type immediates are
// the raw 20-bit field, branch and jump immediates are byte offsets.
#include "arch/riscv64_fields.h"
#include "check/check.h"

namespace linklab::check {
namespace {

using namespace riscv64;

const char *const ABI[] = {"zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
                           "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
                           "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
Operand x(uint32_t N) { return Operand{false, 0, ABI[N & 31]}; }
Operand f(uint32_t N) { return Operand{false, 0, formatv("f%u", N & 31)}; }
Operand imm(int64_t V) { return Operand{true, V, ""}; }

// Mnemonics by funct3 for the opcodes that select on it ("" = reserved).
struct Major {
  uint32_t opcode;
  char format; // U, J, I, S, B
  bool fpData; // rd/rs2 is an FP register
  const char *names[8];
};
constexpr Major Majors[] = {
    {0x37, 'U', false, {"LUI"}},
    {0x17, 'U', false, {"AUIPC"}},
    {0x6F, 'J', false, {"JAL"}},
    {0x67, 'I', false, {"JALR"}},
    {0x63, 'B', false, {"BEQ", "BNE", "", "", "BLT", "BGE", "BLTU", "BGEU"}},
    {0x03, 'I', false, {"LB", "LH", "LW", "LD", "LBU", "LHU", "LWU", ""}},
    {0x07, 'I', true, {"", "", "FLW", "FLD", "", "", "", ""}},
    {0x23, 'S', false, {"SB", "SH", "SW", "SD", "", "", "", ""}},
    {0x27, 'S', true, {"", "", "FSW", "FSD", "", "", "", ""}},
    {0x13, 'I', false, {"ADDI", "", "SLTI", "SLTIU", "XORI", "", "ORI", "ANDI"}},
    {0x1B, 'I', false, {"ADDIW", "", "", "", "", "", "", ""}},
};

} // namespace

Expected<DecodedInst> decodeRISCV64(std::span<const uint8_t> Bytes) {
  if (Bytes.size() < 2)
    return makeError("riscv64: truncated instruction");
  uint16_t Half = uint16_t(Bytes[0] | Bytes[1] << 8);
  DecodedInst D;
  if (isCompressed(Half)) {
    D.size = 2;
    unsigned Funct3 = Half >> 13, Quadrant = Half & 3;
    if (Quadrant == 1 && Funct3 == 5) {
      D.name = "C_J";
      D.operands = {imm(decodeCJType(Half))};
    } else if (Quadrant == 1 && (Funct3 == 6 || Funct3 == 7)) {
      D.name = Funct3 == 6 ? "C_BEQZ" : "C_BNEZ";
      D.operands = {x(8 + bitsOf(Half, 9, 7)), imm(decodeCBType(Half))};
    } else {
      return makeError(formatv("riscv64: compressed instruction 0x%04x is not a form fixups use", Half));
    }
    return D;
  }
  if (Bytes.size() < 4)
    return makeError("riscv64: truncated 32-bit instruction");
  uint32_t I = uint32_t(Half) | uint32_t(Bytes[2]) << 16 | uint32_t(Bytes[3]) << 24;
  D.size = 4;
  uint32_t Op = I & 0x7F, F3 = bitsOf(I, 14, 12), Rd = rdOf(I), Rs1 = bitsOf(I, 19, 15), Rs2 = bitsOf(I, 24, 20);
  for (const Major &M : Majors) {
    if (M.opcode != Op)
      continue;
    const char *Name = M.format == 'U' || M.format == 'J' ? M.names[0] : M.names[F3];
    if (!Name || !*Name || (Op == 0x67 && F3 != 0))
      break;
    D.name = Name;
    auto Data = [&](uint32_t R) { return M.fpData ? f(R) : x(R); };
    switch (M.format) {
    case 'U': D.operands = {x(Rd), imm(decodeUType(I))}; break;
    case 'J': D.operands = {x(Rd), imm(decodeJType(I))}; break;
    case 'I': D.operands = {Data(Rd), x(Rs1), imm(decodeIType(I))}; break;
    case 'S': D.operands = {Data(Rs2), x(Rs1), imm(decodeSType(I))}; break;
    case 'B': D.operands = {x(Rs1), x(Rs2), imm(decodeBType(I))}; break;
    }
    return D;
  }
  return makeError(formatv("riscv64: 0x%08x is not an instruction form fixups use", I));
}

} // namespace linklab::check
