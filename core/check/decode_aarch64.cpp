// AArch64 decode for decode_operand/next_pc: the instruction classes whose
// immediates fixups write, with fields read through arch/aarch64_fields.h
// (the same definitions the fixups encode with). Operand order and units are
// LLVM MC's: branch offsets in instructions, ADRP in pages, LDR/STR imm12
// still scaled, MOVK with its tied source register, ADD's shift as 0 or 12.
#include "arch/aarch64_fields.h"
#include "check/check.h"

namespace linklab::check {
namespace {

using namespace aarch64::fields;

Operand imm(int64_t V) { return Operand{true, V, ""}; }
// Register 31 is sp or the zero register depending on the operand.
Operand xreg(uint32_t N, bool Is64, bool R31IsSP) {
  if (N == 31)
    return Operand{false, 0, R31IsSP ? (Is64 ? "sp" : "wsp") : (Is64 ? "xzr" : "wzr")};
  return Operand{false, 0, formatv("%c%u", Is64 ? 'x' : 'w', N)};
}
uint32_t rd(uint32_t I) { return getBits(I, 0, 5); }
uint32_t rn(uint32_t I) { return getBits(I, 5, 5); }
bool sf(uint32_t I) { return getBits(I, 31, 1); }

// LLVM names for LDR/STR (unsigned offset), by V:size:opc.
const char *loadStoreName(uint32_t I) {
  unsigned Key = (getBits(I, 26, 1) << 4) | (getBits(I, 30, 2) << 2) | getBits(I, 22, 2);
  struct Row {
    unsigned key;
    const char *name;
  };
  static constexpr Row Rows[] = {{0x00, "STRBBui"}, {0x01, "LDRBBui"}, {0x02, "LDRSBXui"}, {0x03, "LDRSBWui"},
                                 {0x04, "STRHHui"}, {0x05, "LDRHHui"}, {0x06, "LDRSHXui"}, {0x07, "LDRSHWui"},
                                 {0x08, "STRWui"},  {0x09, "LDRWui"},  {0x0A, "LDRSWui"},  {0x0C, "STRXui"},
                                 {0x0D, "LDRXui"},  {0x0E, "PRFMui"},  {0x10, "STRBui"},   {0x11, "LDRBui"},
                                 {0x12, "STRQui"},  {0x13, "LDRQui"},  {0x14, "STRHui"},   {0x15, "LDRHui"},
                                 {0x18, "STRSui"},  {0x19, "LDRSui"},  {0x1C, "STRDui"},   {0x1D, "LDRDui"}};
  for (const Row &R : Rows)
    if (R.key == Key)
      return R.name;
  return "LDSTui";
}

const char *loadLiteralName(uint32_t I) {
  static constexpr const char *GPR[] = {"LDRWl", "LDRXl", "LDRSWl", "PRFMl"};
  static constexpr const char *FP[] = {"LDRSl", "LDRDl", "LDRQl", "LDRl"};
  return (getBits(I, 26, 1) ? FP : GPR)[getBits(I, 30, 2)];
}

} // namespace

Expected<DecodedInst> decodeAArch64(std::span<const uint8_t> Bytes) {
  if (Bytes.size() < 4)
    return makeError(formatv("aarch64: truncated instruction (%zu bytes)", Bytes.size()));
  uint32_t I = uint32_t(Bytes[0]) | uint32_t(Bytes[1]) << 8 | uint32_t(Bytes[2]) << 16 | uint32_t(Bytes[3]) << 24;
  DecodedInst D;
  D.size = 4;
  auto &Ops = D.operands;
  if (isBranch26(I)) {
    D.name = getBits(I, 31, 1) ? "BL" : "B";
    Ops = {imm(decodeBranch26(I))};
  } else if (isCondBranch19(I)) {
    D.name = "Bcc";
    Ops = {imm(getBits(I, 0, 4)), imm(decodeImm19(I))};
  } else if (isCompareBranch19(I)) {
    D.name = std::string(getBits(I, 24, 1) ? "CBNZ" : "CBZ") + (sf(I) ? "X" : "W");
    Ops = {xreg(rd(I), sf(I), false), imm(decodeImm19(I))};
  } else if (isTestBranch14(I)) {
    // The bit number's top bit doubles as the register width.
    D.name = std::string(getBits(I, 24, 1) ? "TBNZ" : "TBZ") + (sf(I) ? "X" : "W");
    Ops = {xreg(rd(I), sf(I), false), imm(decodeTestBitNumber(I)), imm(decodeTestBranch14(I))};
  } else if (isLoadLiteral19(I)) {
    D.name = loadLiteralName(I);
    bool FP = getBits(I, 26, 1);
    Ops = {FP ? Operand{false, 0, formatv("v%u", rd(I))} : xreg(rd(I), getBits(I, 30, 1), false), imm(decodeImm19(I))};
  } else if (isAdr(I) || isAdrp(I)) {
    D.name = isAdrp(I) ? "ADRP" : "ADR";
    Ops = {xreg(rd(I), true, false), imm(decodeAdrImm21(I))};
  } else if (isAddSubImm12(I)) {
    bool Sub = getBits(I, 30, 1), SetFlags = getBits(I, 29, 1);
    D.name = std::string(Sub ? "SUB" : "ADD") + (SetFlags ? "S" : "") + (sf(I) ? "X" : "W") + "ri";
    Ops = {xreg(rd(I), sf(I), !SetFlags), xreg(rn(I), sf(I), true), imm(decodeAddImm12(I)),
           imm(decodeAddShift12(I) ? 12 : 0)};
  } else if (isLoadStoreImm12(I)) {
    D.name = loadStoreName(I);
    bool FP = getBits(I, 26, 1);
    Ops = {FP ? Operand{false, 0, formatv("v%u", rd(I))} : xreg(rd(I), getBits(I, 30, 2) == 3, false),
           xreg(rn(I), true, true), imm(decodeLoadStoreImm12(I))};
  } else if (isMoveWide(I)) {
    unsigned Opc = getBits(I, 29, 2);
    if (Opc == 1)
      return makeError(formatv("aarch64: unallocated move-wide encoding 0x%08x", I));
    static constexpr const char *Names[] = {"MOVN", "", "MOVZ", "MOVK"};
    D.name = std::string(Names[Opc]) + (sf(I) ? "Xi" : "Wi");
    Operand Rd = xreg(rd(I), sf(I), false);
    Ops = {Rd};
    if (Opc == 3) // MOVK reads the register it writes: LLVM lists it twice
      Ops.push_back(Rd);
    Ops.push_back(imm(decodeMoveWideImm16(I)));
    Ops.push_back(imm(decodeMoveWideShift(I)));
  } else {
    return makeError(formatv("aarch64: 0x%08x is not an instruction form fixups use", I));
  }
  return D;
}

} // namespace linklab::check
