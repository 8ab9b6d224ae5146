// Arm and Thumb decode for decode_operand/next_pc: the branch and MOVW/MOVT
// forms whose fields fixups write, read through arch/arm_fields.h (the
// fields the fixups encode with). Operands are LLVM MC's, predicates
// included: a conditional form lists (cond, predicate register) after its
// own operands, Thumb BL/BLX list them first, MOVT repeats its destination
// as a tied source. Branch offsets are bytes from the PC as the instruction
// reads it, and next_pc is that PC: the instruction's address + 8 in Arm
// state (RuntimeDyldChecker's ARM prefetch rule), + its size in Thumb.
#include "arch/arm_fields.h"
#include "check/check.h"

namespace linklab::check {
namespace {

using namespace arm::fields;

Operand imm(int64_t V) { return Operand{true, V, ""}; }
Operand reg(uint32_t N) {
  static constexpr const char *Names[] = {"r0", "r1", "r2",  "r3",  "r4",  "r5", "r6", "r7",
                                          "r8", "r9", "r10", "r11", "r12", "sp", "lr", "pc"};
  return Operand{false, 0, Names[N & 15]};
}
// LLVM's predicate pair: the condition (14 = always) and CPSR, or no
// register when the condition is always.
std::vector<Operand> predicate(uint32_t Cond) { return {imm(Cond), Operand{false, 0, Cond == 14 ? "noreg" : "cpsr"}}; }

} // namespace

Expected<DecodedInst> decodeArm(std::span<const uint8_t> Bytes) {
  if (Bytes.size() < 4)
    return makeError(formatv("arm: truncated instruction (%zu bytes)", Bytes.size()));
  uint32_t I = readArm(reinterpret_cast<const char *>(Bytes.data()));
  DecodedInst D;
  D.size = 4;
  D.nextPC = 8;
  uint32_t Cond = bits(I, 28, 4);
  auto &Ops = D.operands;
  if (isArmBlx(I)) {
    D.name = "BLXi";
    Ops = {imm(decodeArmBranch(I))};
  } else if (isArmBranch(I)) {
    bool Link = bits(I, 24, 1);
    // An unconditional BL has no predicate operands (BL_pred has).
    D.name = Link ? (Cond == 14 ? "BL" : "BL_pred") : "Bcc";
    Ops = {imm(decodeArmBranch(I))};
    if (!Link || Cond != 14)
      for (Operand &P : predicate(Cond))
        Ops.push_back(P);
  } else if (isArmMovw(I) || isArmMovt(I)) {
    bool Movt = isArmMovt(I);
    D.name = Movt ? "MOVTi16" : "MOVi16";
    Ops = {reg(bits(I, 12, 4))};
    if (Movt)
      Ops.push_back(reg(bits(I, 12, 4)));
    Ops.push_back(imm(decodeArmMov(I)));
    for (Operand &P : predicate(Cond))
      Ops.push_back(P);
  } else {
    return makeError(formatv("arm: 0x%08x is not an instruction form fixups use", I));
  }
  return D;
}

Expected<DecodedInst> decodeThumb(std::span<const uint8_t> Bytes) {
  if (Bytes.size() < 2)
    return makeError(formatv("thumb: truncated instruction (%zu bytes)", Bytes.size()));
  const char *P = reinterpret_cast<const char *>(Bytes.data());
  uint16_t First = readLE<uint16_t>(P);
  DecodedInst D;
  auto &Ops = D.operands;
  // A 32-bit Thumb-2 instruction starts with 0b11101, 0b11110 or 0b11111.
  if ((First >> 11) < 0x1d) {
    D.size = 2;
    if ((First & 0xff87) == 0x4700) { // BX Rm
      D.name = "tBX";
      Ops = {reg(bits(First, 3, 4))};
      for (Operand &Pr : predicate(14))
        Ops.push_back(Pr);
    } else if ((First >> 11) == 0x1c) { // B (T2): imm11 halfwords
      D.name = "tB";
      Ops = {imm(signExtend(uint64_t(bits(First, 0, 11)) << 1, 12))};
      for (Operand &Pr : predicate(14))
        Ops.push_back(Pr);
    } else if ((First >> 12) == 0xd && bits(First, 8, 4) < 14) { // B<c> (T1): imm8 halfwords
      D.name = "tBcc";
      Ops = {imm(signExtend(uint64_t(bits(First, 0, 8)) << 1, 9))};
      for (Operand &Pr : predicate(bits(First, 8, 4)))
        Ops.push_back(Pr);
    } else {
      return makeError(formatv("thumb: 0x%04x is not an instruction form fixups use", First));
    }
    return D;
  }
  if (Bytes.size() < 4)
    return makeError(formatv("thumb: truncated 32-bit instruction (%zu bytes)", Bytes.size()));
  ThumbPair T = readThumb(P);
  D.size = 4;
  if (isThumbCall(T)) {
    // BL (Lo bit 12 set) or BLX to Arm code; predicates first.
    D.name = bits(T.lo, 12, 1) ? "tBL" : "tBLXi";
    Ops = predicate(14);
    Ops.push_back(imm(decodeThumbBranch(T)));
  } else if (isThumbJump24(T)) {
    D.name = "t2B";
    Ops = {imm(decodeThumbBranch(T))};
    for (Operand &Pr : predicate(14))
      Ops.push_back(Pr);
  } else if (isThumbJump19(T)) {
    D.name = "t2Bcc";
    Ops = {imm(decodeThumbJump19(T))};
    for (Operand &Pr : predicate(bits(T.hi, 6, 4)))
      Ops.push_back(Pr);
  } else if (isThumbMovw(T) || isThumbMovt(T)) {
    bool Movt = isThumbMovt(T);
    D.name = Movt ? "t2MOVTi16" : "t2MOVi16";
    Ops = {reg(bits(T.lo, 8, 4))};
    if (Movt)
      Ops.push_back(reg(bits(T.lo, 8, 4)));
    Ops.push_back(imm(decodeThumbMov(T)));
    for (Operand &Pr : predicate(14))
      Ops.push_back(Pr);
  } else {
    return makeError(formatv("thumb: [ %04x, %04x ] is not an instruction form fixups use", T.hi, T.lo));
  }
  return D;
}

} // namespace linklab::check
