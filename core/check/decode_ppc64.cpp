// PowerPC 64 decode for decode_operand/next_pc (either byte order: each
// 4-byte word is read in the object's order): the forms
// whose fields fixups write, with operands as LLVM 22's PPC disassembler
// lists them (what llvm-jitlink's checker reads):
// - D-form: addi/addis (rt, ra, si; li/lis when ra is 0: rt, si), ori/oris
//   (ra, rs, ui); loads and stores (rt, d, ra), whose d LLVM reads as an
//   unsigned 16-bit field; their update forms put ra (the written-back
//   base) before a load's rt and a store's rs;
// - DS/DQ-form (ld, std, lwa, lxsd, lxv, lq, lxvp...): (rt, d, ra), d the
//   signed displacement in bytes (the field shifted back);
// - branches: b/bl (the signed 24-bit word offset), bc (bo, cr bit, the
//   signed 14-bit word offset);
// - Power10 prefixed instructions, 8 bytes, the prefix word first: paddi and
//   the prefixed loads/stores with their signed 34-bit d; PC-relative ones
//   (R = 1) are the `pc` forms, whose third operand is the immediate 0.
#include "check/check.h"
#include "support/bits.h"

namespace linklab::check {
namespace {

Operand reg(const char *Prefix, uint32_t N) { return Operand{false, 0, formatv("%s%u", Prefix, N)}; }
Operand gpr(uint32_t N) { return reg("r", N & 31); }
// A base register field, where 0 means no register (the value 0).
Operand base(uint32_t N) { return N & 31 ? gpr(N) : Operand{false, 0, "zero"}; }
Operand imm(int64_t V) { return Operand{true, V, ""}; }
int64_t signExtend(uint64_t V, unsigned Bits) { return int64_t(V << (64 - Bits)) >> (64 - Bits); }

// The data register a load or store moves: GPR, FPR, VSX scalar, VSX.
enum class Data : uint8_t { G, F, VF, VS };
Operand dataReg(Data D, uint32_t N) {
  switch (D) {
  case Data::F: return reg("f", N & 31);
  case Data::VF: return reg("v", N & 31);
  case Data::VS: return reg("vs", N & 63);
  default: return gpr(N);
  }
}

struct DForm {
  uint32_t opcode;
  const char *name;
  Data data;
  bool store, update;
};
// Loads and stores with a 16-bit displacement, by primary opcode.
constexpr DForm DForms[] = {
    {32, "LWZ", Data::G, false, false}, {33, "LWZU", Data::G, false, true}, {34, "LBZ", Data::G, false, false},
    {35, "LBZU", Data::G, false, true}, {36, "STW", Data::G, true, false},  {37, "STWU", Data::G, true, true},
    {38, "STB", Data::G, true, false},  {39, "STBU", Data::G, true, true},  {40, "LHZ", Data::G, false, false},
    {41, "LHZU", Data::G, false, true}, {42, "LHA", Data::G, false, false}, {43, "LHAU", Data::G, false, true},
    {44, "STH", Data::G, true, false},  {45, "STHU", Data::G, true, true},  {48, "LFS", Data::F, false, false},
    {49, "LFSU", Data::F, false, true}, {50, "LFD", Data::F, false, false}, {51, "LFDU", Data::F, false, true},
    {52, "STFS", Data::F, true, false}, {53, "STFSU", Data::F, true, true}, {54, "STFD", Data::F, true, false},
    {55, "STFDU", Data::F, true, true},
};

// DS-form (opcode, low 2 bits) and DQ-form (opcode 61, low 3 bits) rows.
struct DSForm {
  uint32_t opcode, xo;
  const char *name;
  Data data;
  bool update;
};
constexpr DSForm DSForms[] = {
    {58, 0, "LD", Data::G, false},      {58, 1, "LDU", Data::G, true},     {58, 2, "LWA", Data::G, false},
    {62, 0, "STD", Data::G, false},     {62, 1, "STDU", Data::G, true},    {62, 2, "STQ", Data::G, false},
    {57, 2, "LXSD", Data::VF, false},   {57, 3, "LXSSP", Data::VF, false}, {61, 2, "STXSD", Data::VF, false},
    {61, 3, "STXSSP", Data::VF, false},
};

// Prefixed loads and stores: (prefix type, suffix opcode) -> name.
struct Prefixed {
  uint32_t type, opcode;
  const char *name;
  Data data;
};
constexpr Prefixed PrefixedForms[] = {
    {2, 32, "PLWZ", Data::G},   {2, 34, "PLBZ", Data::G},    {2, 36, "PSTW", Data::G},    {2, 38, "PSTB", Data::G},
    {2, 40, "PLHZ", Data::G},   {2, 42, "PLHA", Data::G},    {2, 44, "PSTH", Data::G},    {2, 48, "PLFS", Data::F},
    {2, 50, "PLFD", Data::F},   {2, 52, "PSTFS", Data::F},   {2, 54, "PSTFD", Data::F},   {0, 41, "PLWA", Data::G},
    {0, 42, "PLXSD", Data::VF}, {0, 43, "PLXSSP", Data::VF}, {0, 46, "PSTXSD", Data::VF}, {0, 47, "PSTXSSP", Data::VF},
    {0, 50, "PLXV", Data::VS},  {0, 51, "PLXV", Data::VS},   {0, 54, "PSTXV", Data::VS},  {0, 55, "PSTXV", Data::VS},
    {0, 57, "PLD", Data::G},    {0, 61, "PSTD", Data::G},
};

const char *const CRBits[] = {"LT", "GT", "EQ", "UN"};

Expected<DecodedInst> decodePrefixed(uint32_t P, uint32_t S) {
  uint32_t Type = (P >> 24) & 3, R = (P >> 20) & 1, Op = S >> 26, RT = (S >> 21) & 31, RA = (S >> 16) & 31;
  int64_t D = signExtend((uint64_t(P & 0x3ffff) << 16) | (S & 0xffff), 34);
  DecodedInst I;
  I.size = 8;
  if (Type == 2 && Op == 14) { // paddi, pla, pli
    if (R)
      I.name = "PADDIpc", I.operands = {gpr(RT), imm(0), imm(D)};
    else if (RA == 0)
      I.name = "PLI", I.operands = {gpr(RT), imm(D)};
    else
      I.name = "PADDI", I.operands = {gpr(RT), gpr(RA), imm(D)};
    return I;
  }
  for (const Prefixed &F : PrefixedForms) {
    if (F.type != Type || F.opcode != Op)
      continue;
    // plxv/pstxv: the register's high bit is the opcode's low bit (TX).
    uint32_t Reg = F.data == Data::VS ? RT | (Op & 1) << 5 : RT;
    I.name = std::string(F.name) + (R ? "pc" : "");
    I.operands = {dataReg(F.data, Reg), imm(D), R ? imm(0) : base(RA)};
    return I;
  }
  return makeError(formatv("ppc64: prefixed instruction %08x %08x is not a form fixups use", P, S));
}

Expected<DecodedInst> decodeWords(std::span<const uint8_t> Bytes, bool BigEndian) {
  if (Bytes.size() < 4)
    return makeError("ppc64: truncated instruction");
  const char *At = reinterpret_cast<const char *>(Bytes.data());
  uint32_t W = readData<uint32_t>(At, BigEndian);
  uint32_t Op = W >> 26, RT = (W >> 21) & 31, RA = (W >> 16) & 31;
  if (Op == 1) {
    if (Bytes.size() < 8)
      return makeError("ppc64: truncated prefixed instruction");
    return decodePrefixed(W, readData<uint32_t>(At + 4, BigEndian));
  }
  DecodedInst I;
  I.size = 4;
  int64_t SI = signExtend(W & 0xffff, 16);
  switch (Op) {
  case 14:
  case 15:
    I.name = Op == 14 ? (RA ? "ADDI" : "LI") : (RA ? "ADDIS" : "LIS");
    I.operands = RA ? std::vector<Operand>{gpr(RT), gpr(RA), imm(SI)} : std::vector<Operand>{gpr(RT), imm(SI)};
    return I;
  case 24:
  case 25:
    if (W == 0x60000000) { // ori 0, 0, 0 is the nop LLVM lists without operands
      I.name = "NOP";
      return I;
    }
    I.name = Op == 24 ? "ORI" : "ORIS";
    I.operands = {gpr(RA), gpr(RT), imm(W & 0xffff)};
    return I;
  case 18: {
    static const char *const Names[] = {"B", "BL", "BA", "BLA"};
    I.name = Names[W & 3];
    I.operands = {imm(signExtend((W >> 2) & 0xffffff, 24))};
    return I;
  }
  case 16: {
    static const char *const Names[] = {"gBC", "gBCL", "gBCA", "gBCLA"};
    I.name = Names[W & 3];
    I.operands = {imm(RT), Operand{false, 0, formatv("cr%u%s", RA >> 2, CRBits[RA & 3])},
                  imm(signExtend((W >> 2) & 0x3fff, 14))};
    return I;
  }
  default: break;
  }
  for (const DForm &F : DForms) {
    if (F.opcode != Op)
      continue;
    I.name = F.name;
    Operand Data = dataReg(F.data, RT);
    if (F.update)
      I.operands = F.store ? std::vector<Operand>{gpr(RA), Data, imm(W & 0xffff), gpr(RA)}
                           : std::vector<Operand>{Data, gpr(RA), imm(W & 0xffff), gpr(RA)};
    else
      I.operands = {Data, imm(W & 0xffff), base(RA)};
    return I;
  }
  // DQ-form, d signed (the field shifted back): lxv/stxv (the register's
  // high bit is bit 3), lq, and Power10's lxvp/stxvp (a VSX register pair:
  // bits 22-25 its number / 2, bit 21 the high half).
  int64_t DQ = signExtend(W & 0xfff0, 16);
  if (Op == 61 && (W & 3) == 1) {
    I.name = W & 4 ? "STXV" : "LXV";
    I.operands = {dataReg(Data::VS, RT | ((W >> 3) & 1) << 5), imm(DQ), base(RA)};
    return I;
  }
  if (Op == 56 && (W & 0xf) == 0) {
    I.name = "LQ";
    I.operands = {gpr(RT), imm(DQ), base(RA)};
    return I;
  }
  if (Op == 6 && (W & 0xe) == 0) {
    I.name = W & 1 ? "STXVP" : "LXVP";
    I.operands = {reg("vsp", ((RT & 1) << 5 | (RT & 0x1e)) / 2), imm(DQ), base(RA)};
    return I;
  }
  for (const DSForm &F : DSForms) {
    if (F.opcode != Op || F.xo != (W & 3))
      continue;
    I.name = F.name;
    Operand Data = dataReg(F.data, RT);
    int64_t DS = signExtend(W & 0xfffc, 16);
    if (F.update) // ldu (rt, ra, ds, ra); stdu (ra, rs, ds, ra)
      I.operands = Op == 58 ? std::vector<Operand>{Data, gpr(RA), imm(DS), gpr(RA)}
                            : std::vector<Operand>{gpr(RA), Data, imm(DS), gpr(RA)};
    else
      I.operands = {Data, imm(DS), base(RA)};
    return I;
  }
  return makeError(formatv("ppc64: 0x%08x is not an instruction form fixups use", W));
}

} // namespace

Expected<DecodedInst> decodePPC64LE(std::span<const uint8_t> Bytes) { return decodeWords(Bytes, false); }
Expected<DecodedInst> decodePPC64BE(std::span<const uint8_t> Bytes) { return decodeWords(Bytes, true); }

} // namespace linklab::check
