// jitlink-check: the rule language llvm-jitlink's -check evaluates (LLVM's
// RuntimeDyldChecker grammar), over an abstract view of linked memory so the
// evaluator can be tested with a fake.
//
//   rule    := expr '=' expr                      both sides as uint64
//   expr    := simple (binop simple)*             strictly left to right,
//   binop   := '+' | '-' | '&' | '|' | '<<' | '>>'   no precedence
//   simple  := ( '(' expr ')' | '*{' N '}' expr | number | symbol | builtin ) slice?
//   slice   := '[' hi ':' lo ']'                  bits hi..lo, shifted down
//   builtin := decode_operand(symbol [+ N], index) | next_pc(symbol)
//            | got_addr(file, symbol) | stub_addr(file, symbol [, kind])
//            | section_addr(file, section)
//
// Quirks kept for compatibility: a load's address is the whole expression
// after `*{N}` (so `*{4}a + 4` loads from a+4), and a symbol names its target
// address both inside and outside loads (we have one address space).
// Leniency over llvm-jitlink: whitespace may follow numbers, and
// decode_operand/next_pc accept `symbol - N` too.
#pragma once

#include "support/error.h"
#include "target/triple.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace linklab::check {

// One operand as LLVM's MC layer lists it: a register or an immediate.
struct Operand {
  bool isImm = false;
  int64_t imm = 0;
  std::string reg; // register name, or "noreg" for an absent base/index/segment
};

struct DecodedInst {
  std::string name; // LLVM MC opcode name where we know it (MOV64rm, ADRP, AUIPC)
  unsigned size = 0;
  // next_pc's distance from the instruction where it is not the size (Arm
  // state: the PC reads 8 ahead).
  unsigned nextPC = 0;
  std::vector<Operand> operands;
  std::string describe() const; // "MOV64rm rax, rip, 1, noreg, 0x1000, noreg"
};

// Decodes the instruction at the start of Bytes (which may run past it).
// Only the forms fixups touch are known; anything else is an error naming
// the bytes.
// Thumb selects the Thumb decoder on Arm.
Expected<DecodedInst> decodeInstruction(Arch A, std::span<const uint8_t> Bytes, bool Thumb = false);
Expected<DecodedInst> decodeX86_64(std::span<const uint8_t> Bytes);
Expected<DecodedInst> decodeI386(std::span<const uint8_t> Bytes);
Expected<DecodedInst> decodeAArch64(std::span<const uint8_t> Bytes);
Expected<DecodedInst> decodeRISCV64(std::span<const uint8_t> Bytes);
Expected<DecodedInst> decodePPC64LE(std::span<const uint8_t> Bytes);
Expected<DecodedInst> decodePPC64BE(std::span<const uint8_t> Bytes);
Expected<DecodedInst> decodeArm(std::span<const uint8_t> Bytes);
Expected<DecodedInst> decodeThumb(std::span<const uint8_t> Bytes);
Expected<DecodedInst> decodeLoongArch(std::span<const uint8_t> Bytes);

// What rules may ask of a linked program. Addresses are target addresses.
class CheckEnv {
public:
  virtual ~CheckEnv() = default;
  virtual Arch arch() const = 0;
  virtual bool isLittleEndian() const { return true; }
  virtual Expected<uint64_t> symbolAddress(std::string_view Name) const = 0;
  // Whether Name is Thumb code (decode_operand then decodes Thumb).
  virtual bool isThumbSymbol(std::string_view) const { return false; }
  virtual Expected<uint64_t> gotEntryAddress(std::string_view File, std::string_view Target) const = 0;
  virtual Expected<uint64_t> stubAddress(std::string_view File, std::string_view Target,
                                         std::string_view Kind) const = 0;
  virtual Expected<uint64_t> sectionAddress(std::string_view File, std::string_view Section) const = 0;
  // Up to Size linked bytes from Addr (fewer where the section ends); an
  // error when Addr is in no linked section.
  virtual Expected<std::vector<uint8_t>> readBytes(uint64_t Addr, size_t Size) const = 0;
};

struct RuleValues {
  uint64_t lhs = 0, rhs = 0;
};

// Evaluates both sides of one rule ("LHS = RHS", prefix already removed).
Expected<RuleValues> evaluateRule(std::string_view Rule, const CheckEnv &Env);
// Evaluates one expression; it must be consumed entirely.
Expected<uint64_t> evaluateExpr(std::string_view Expr, const CheckEnv &Env);

struct CheckResult {
  unsigned rules = 0;
  std::vector<std::string> failures; // one message per failing rule, in file order
  bool passed() const { return rules != 0 && failures.empty(); }
};

// Runs every rule in Text: lines that start (after blanks) with
// "# <Name>:"; a rule ending in '\' continues on the next such line.
// Messages read "<File>:<line>: ...". No rules at all counts as a failure.
CheckResult checkBuffer(std::string_view Text, std::string_view File, std::string_view Name, const CheckEnv &Env);

} // namespace linklab::check
