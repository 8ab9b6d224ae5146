// A small x86 decoder (x86-64, and i386's 32-bit mode) for
// decode_operand/next_pc: only the instruction forms whose fields fixups
// write (rel8/rel32 branches and calls, ModRM
// memory operands with RIP-relative or other displacements, immediates).
// Operands come out in LLVM MC order so existing checks keep their indices:
// a memory operand is five (base, scale, index, disp, segment); LLVM's
// two-address forms (ADD64rm and friends) repeat the destination as a tied
// source; jcc is (target, condition code). In 32-bit mode 40-4F are
// INC/DEC, not REX, and ModRM mod=00 rm=101 is an absolute disp32 (no base)
// rather than RIP-relative.
#include "check/check.h"

#include <algorithm>

namespace linklab::check {
namespace {

const char *const Reg64[] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                             "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
const char *const Reg32[] = {"eax", "ecx", "edx",  "ebx",  "esp",  "ebp",  "esi",  "edi",
                             "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d"};
const char *const Reg16[] = {"ax",  "cx",  "dx",   "bx",   "sp",   "bp",   "si",   "di",
                             "r8w", "r9w", "r10w", "r11w", "r12w", "r13w", "r14w", "r15w"};

// How an opcode's operands are laid out, in LLVM's operand order.
enum class Form {
  Rel8,      // target                        (JMP_1)
  Rel32,     // target                        (CALL64pcrel32, JMP_4)
  Jcc8,      // target, cc                    (JCC_1: 70+cc)
  Jcc32,     // target, cc                    (JCC_4: 0F 80+cc)
  RegMem,    // reg, mem                      (MOV64rm, LEA64r, CMP64rm)
  RegRegMem, // reg, reg (tied), mem          (ADD64rm, SUB64rm, ...)
  MemReg,    // mem, reg                      (MOV64mr, ADD64mr, CMP64mr)
  MemOnly,   // mem                           (CALL64m, JMP64m: FF /2, /4)
  MemImm32,  // mem, imm32 (or reg, imm32 when mod=3: MOV64ri32)  (C7 /0, 81 /r, F7 /0)
  MemImm8,   // mem, imm8                     (83 /r)
  RegImm,    // reg (opcode low bits), imm32/imm64  (MOV32ri, MOV64ri)
  Imm16,     // imm16                         (RETI32: C2 iw)
};

struct OpcodeRow {
  uint8_t opcode;
  bool twoByte; // after 0F
  Form form;
  const char *name;             // LLVM stem; the width and form suffix are appended
  int modrmReg;                 // required ModRM.reg for group opcodes, or -1
  const char *name32 = nullptr; // the name in 32-bit mode, where it differs
};

// Rows for Jcc cover their whole 16-opcode ranges; see lookup().
constexpr OpcodeRow Opcodes[] = {
    {0xE8, false, Form::Rel32, "CALL64pcrel32", -1, "CALLpcrel32"},
    {0xE9, false, Form::Rel32, "JMP_4", -1},
    {0xEB, false, Form::Rel8, "JMP_1", -1},
    {0x70, false, Form::Jcc8, "JCC_1", -1},
    {0x80, true, Form::Jcc32, "JCC_4", -1},
    {0x8B, false, Form::RegMem, "MOV", -1},
    {0x8D, false, Form::RegMem, "LEA", -1},
    {0x3B, false, Form::RegMem, "CMP", -1},
    {0x85, false, Form::MemReg, "TEST", -1},
    {0x03, false, Form::RegRegMem, "ADD", -1},
    {0x2B, false, Form::RegRegMem, "SUB", -1},
    {0x23, false, Form::RegRegMem, "AND", -1},
    {0x0B, false, Form::RegRegMem, "OR", -1},
    {0x33, false, Form::RegRegMem, "XOR", -1},
    {0x89, false, Form::MemReg, "MOV", -1},
    {0x01, false, Form::MemReg, "ADD", -1},
    {0x39, false, Form::MemReg, "CMP", -1},
    {0xFF, false, Form::MemOnly, "CALL64m", 2, "CALL32m"},
    {0xFF, false, Form::MemOnly, "JMP64m", 4, "JMP32m"},
    {0xFF, false, Form::MemOnly, "PUSH64rmm", 6, "PUSH32rmm"},
    {0xC7, false, Form::MemImm32, "MOV", 0},
    {0xF7, false, Form::MemImm32, "TEST", 0},
    {0x81, false, Form::MemImm32, "ADD", 0},
    {0x81, false, Form::MemImm32, "SUB", 5},
    {0x81, false, Form::MemImm32, "CMP", 7},
    {0x83, false, Form::MemImm8, "ADD", 0},
    {0x83, false, Form::MemImm8, "CMP", 7},
    {0xB8, false, Form::RegImm, "MOV", -1},
    {0xC2, false, Form::Imm16, "RETI64", -1, "RETI32"},
};

const OpcodeRow *lookup(uint8_t Op, bool TwoByte, int ModRMReg) {
  for (const OpcodeRow &R : Opcodes) {
    bool Ranged = R.form == Form::Jcc8 || R.form == Form::Jcc32 || R.form == Form::RegImm;
    uint8_t Span = R.form == Form::RegImm ? 8 : 16;
    bool Hit = Ranged ? (Op >= R.opcode && Op < R.opcode + Span) : Op == R.opcode;
    if (Hit && R.twoByte == TwoByte && (R.modrmReg < 0 || R.modrmReg == ModRMReg))
      return &R;
  }
  return nullptr;
}

bool hasModRM(Form F) {
  return F != Form::Rel8 && F != Form::Rel32 && F != Form::Jcc8 && F != Form::Jcc32 && F != Form::RegImm &&
         F != Form::Imm16;
}

class Reader {
public:
  explicit Reader(std::span<const uint8_t> B) : Bytes(B) {}
  bool has(size_t N) const { return Pos + N <= Bytes.size(); }
  uint8_t peek() const { return Bytes[Pos]; }
  uint8_t byte() { return Bytes[Pos++]; }
  int64_t signedLE(unsigned N) {
    uint64_t V = 0;
    for (unsigned I = 0; I < N; ++I)
      V |= uint64_t(Bytes[Pos + I]) << (8 * I);
    Pos += N;
    unsigned Shift = 64 - 8 * N;
    return Shift ? int64_t(V << Shift) >> Shift : int64_t(V);
  }
  size_t pos() const { return Pos; }

private:
  std::span<const uint8_t> Bytes;
  size_t Pos = 0;
};

Operand reg(const char *Name) { return Operand{false, 0, Name}; }
Operand imm(int64_t V) { return Operand{true, V, ""}; }

std::string bytesText(std::span<const uint8_t> B) {
  std::string S;
  for (size_t I = 0; I < B.size() && I < 8; ++I)
    S += formatv("%s%02x", I ? " " : "", B[I]);
  return S;
}

Expected<DecodedInst> decodeX86(std::span<const uint8_t> Bytes, bool Is64) {
  auto Unknown = [&](const char *Why) {
    return makeError(formatv("%s: %s (bytes %s)", Is64 ? "x86-64" : "i386", Why, bytesText(Bytes).c_str()));
  };
  const char *const *AddrRegs = Is64 ? Reg64 : Reg32;
  Reader R(Bytes);
  bool OpSize16 = false;
  // Legacy prefixes; 0x67 (addr32) is what GOTPCRELX relaxation puts before
  // a direct call, and LLVM decodes the pair as one CALL64pcrel32.
  static constexpr uint8_t Prefixes[] = {0x66, 0x67, 0xF2, 0xF3, 0x2E, 0x3E, 0x26, 0x64, 0x65, 0x36, 0xF0};
  while (R.has(1) && std::find(std::begin(Prefixes), std::end(Prefixes), R.peek()) != std::end(Prefixes))
    OpSize16 |= R.byte() == 0x66;
  uint8_t Rex = 0;
  if (Is64 && R.has(1) && (R.peek() & 0xF0) == 0x40)
    Rex = R.byte();
  bool W = Rex & 8;
  if (!R.has(1))
    return Unknown("truncated instruction");
  uint8_t Op = R.byte();
  bool TwoByte = Op == 0x0F;
  if (TwoByte) {
    if (!R.has(1))
      return Unknown("truncated instruction");
    Op = R.byte();
  }
  int ModRMReg = -1;
  uint8_t ModRM = 0;
  // Group opcodes pick their row by ModRM.reg, so peek at it first.
  if (R.has(1))
    ModRMReg = (R.peek() >> 3) & 7;
  const OpcodeRow *Row = lookup(Op, TwoByte, ModRMReg);
  if (!Row)
    return Unknown("not an instruction form fixups use");

  DecodedInst I;
  const char *const *Regs = W ? Reg64 : OpSize16 ? Reg16 : Reg32;
  const char *Width = W ? "64" : OpSize16 ? "16" : "32";
  std::vector<Operand> Mem;
  Operand RegOp, RMReg;
  bool RegisterRM = false;
  if (hasModRM(Row->form)) {
    if (!R.has(1))
      return Unknown("truncated ModRM byte");
    ModRM = R.byte();
    unsigned Mod = ModRM >> 6, RegField = ((ModRM >> 3) & 7) | (Rex & 4 ? 8 : 0), RM = ModRM & 7;
    RegOp = reg(Regs[RegField]);
    if (Mod == 3) {
      RegisterRM = true;
      RMReg = reg(Regs[RM | (Rex & 1 ? 8 : 0)]);
    } else {
      Operand Base = reg("noreg"), Index = reg("noreg");
      int64_t Scale = 1, Disp = 0;
      unsigned DispBytes = Mod == 1 ? 1 : Mod == 2 ? 4 : 0;
      if (RM == 4) { // SIB byte follows
        if (!R.has(1))
          return Unknown("truncated SIB byte");
        uint8_t SIB = R.byte();
        Scale = int64_t(1) << (SIB >> 6);
        unsigned Idx = ((SIB >> 3) & 7) | (Rex & 2 ? 8 : 0), B = SIB & 7;
        if (Idx != 4) // rsp cannot be an index: 100 means none
          Index = reg(AddrRegs[Idx]);
        if (B == 5 && Mod == 0)
          DispBytes = 4; // no base, disp32
        else
          Base = reg(AddrRegs[B | (Rex & 1 ? 8 : 0)]);
      } else if (RM == 5 && Mod == 0) {
        if (Is64)
          Base = reg("rip"); // 64-bit mode: mod=00 rm=101 is RIP + disp32
        DispBytes = 4;
      } else {
        Base = reg(AddrRegs[RM | (Rex & 1 ? 8 : 0)]);
      }
      if (!R.has(DispBytes))
        return Unknown("truncated displacement");
      if (DispBytes)
        Disp = R.signedLE(DispBytes);
      Mem = {Base, imm(Scale), Index, imm(Disp), reg("noreg")};
    }
  }
  auto Immediate = [&](unsigned N) -> Expected<int64_t> {
    if (!R.has(N))
      return Unknown("truncated immediate");
    return R.signedLE(N);
  };
  auto Append = [&](std::vector<Operand> Ops) { I.operands.insert(I.operands.end(), Ops.begin(), Ops.end()); };
  auto MemOrReg = [&]() -> std::vector<Operand> { return RegisterRM ? std::vector<Operand>{RMReg} : Mem; };
  const char *Suffix = RegisterRM ? "rr" : "rm";
  const char *Name = !Is64 && Row->name32 ? Row->name32 : Row->name;
  switch (Row->form) {
  case Form::Rel8:
  case Form::Rel32:
  case Form::Jcc8:
  case Form::Jcc32: {
    bool Short = Row->form == Form::Rel8 || Row->form == Form::Jcc8;
    auto Disp = Immediate(Short ? 1 : 4);
    if (!Disp)
      return Disp.takeError();
    I.name = Name;
    Append({imm(*Disp)});
    if (Row->form == Form::Jcc8 || Row->form == Form::Jcc32)
      Append({imm(Op & 0xF)});
    break;
  }
  case Form::RegMem:
    I.name = std::string(Row->name) + Width + (std::string_view(Row->name) == "LEA" ? "r" : Suffix);
    Append({RegOp});
    Append(MemOrReg());
    break;
  case Form::RegRegMem:
    I.name = std::string(Row->name) + Width + Suffix;
    Append({RegOp, RegOp});
    Append(MemOrReg());
    break;
  case Form::MemReg:
    I.name = std::string(Row->name) + Width + (RegisterRM ? "rr" : "mr");
    Append(MemOrReg());
    Append({RegOp});
    break;
  case Form::MemOnly:
    if (RegisterRM)
      return Unknown("register-indirect call/jmp has no field fixups write");
    I.name = Name;
    Append(Mem);
    break;
  case Form::MemImm32:
  case Form::MemImm8: {
    bool Short = Row->form == Form::MemImm8;
    // A 16-bit operand size shrinks imm32 to imm16.
    unsigned Bytes = Short ? 1 : OpSize16 ? 2 : 4;
    auto V = Immediate(Bytes);
    if (!V)
      return V.takeError();
    if (!Short && !W) // LLVM extends an operand-sized immediate with zeros
      *V &= (int64_t(1) << (8 * Bytes)) - 1;
    I.name = std::string(Row->name) + Width + (RegisterRM ? "r" : "m") + (Short ? "i8" : W ? "i32" : "i");
    Append(MemOrReg());
    // LLVM's two-address ri forms tie the destination; MOV, CMP and TEST
    // write none.
    std::string_view N = Row->name;
    if (RegisterRM && N != "MOV" && N != "CMP" && N != "TEST")
      Append({RMReg});
    Append({imm(*V)});
    break;
  }
  case Form::RegImm: {
    // B8+r: movabs imm64 with REX.W, else imm32 (imm16 with 0x66).
    unsigned N = W ? 8 : OpSize16 ? 2 : 4;
    auto V = Immediate(N);
    if (!V)
      return V.takeError();
    if (!W)
      *V &= (int64_t(1) << (8 * N)) - 1;
    I.name = std::string("MOV") + Width + "ri";
    Append({reg(Regs[(Op & 7) | (Rex & 1 ? 8 : 0)]), imm(*V)});
    break;
  }
  case Form::Imm16: {
    auto V = Immediate(2);
    if (!V)
      return V.takeError();
    I.name = Name;
    Append({imm(uint16_t(*V))});
    break;
  }
  }
  I.size = unsigned(R.pos());
  return I;
}

} // namespace

Expected<DecodedInst> decodeX86_64(std::span<const uint8_t> Bytes) { return decodeX86(Bytes, true); }
Expected<DecodedInst> decodeI386(std::span<const uint8_t> Bytes) { return decodeX86(Bytes, false); }

} // namespace linklab::check
