// Per-target facts the planner needs: the register table (the only authority
// on what a spec may name and what a plan's register numbers mean) and the
// handful of psABI rules in which SysV, AAPCS64 and LP64D differ. Adding a
// target means adding one ArchConventions, not editing the planner.
#pragma once

#include "support/error.h"
#include "target/triple.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace linklab::callconv {

enum class RegClass : uint8_t { Gpr, Fpr };

struct RegInfo {
  std::string Name; // canonical spelling in specs ("rcx", "x3", "fa0")
  uint16_t Number;  // DWARF register number: what plans store
  RegClass Class;
  uint8_t Bytes;    // full width
  bool Reserved;    // known but never usable (stack pointer, link register…)
  const char *Note; // reserved: why; otherwise a caution warned about on use
  // Narrower views by log2(bytes): 1,2,4,8,16. Empty means "use Name".
  std::array<std::string, 5> Views;
};

// What happens when a multi-register value finds too few registers left.
enum class OverflowRule : uint8_t {
  KeepPool,    // SysV: the value goes to the stack, later values may still use the registers
  ExhaustPool, // AAPCS64 (C.11/C.14): the pool is closed, everything after goes to the stack
  Split,       // LP64D: first half in the last register, second half on the stack
};

struct ArchConventions {
  Arch A;
  const char *Name;         // "x86_64"
  const char *StandardName; // "SysV"
  uint16_t Machine;         // target ID high half: the ELF e_machine
  uint16_t Abi;             // target ID low half: the ABI variant (1 = the only one so far)
  const char *StandardSpec; // the standard convention, written in the spec language
  const char *SRetRegister; // where a sret pointer goes; nullptr: first integer argument
  uint8_t FprMaxBytes;      // widest floating-point value an FPR carries
  bool VectorsInFpr;        // vectors go to FPRs (else they are passed like aggregates)
  bool FpOverflowToGpr;     // LP64D: FP values use GPRs once FPRs run out
  bool EvenGprPairFor16;    // AAPCS64 C.8: 16-byte aligned values start at an even x register
  bool BigAggregateByRef;   // aggregates > 16 bytes: pointer to a copy (else copied to the stack)
  OverflowRule GprOverflow;
  std::vector<RegInfo> Regs;
  std::string Schema; // fingerprint of Regs, "x86_64.<16 hex digits>"

  const RegInfo *find(std::string_view Name) const;
  const RegInfo *byNumber(unsigned Number) const; // non-reserved registers only
  // The name and width of the narrowest view of R that holds Bytes.
  std::pair<std::string, unsigned> view(const RegInfo &R, unsigned Bytes) const;
  std::string targetId() const { return formatv("%u:%u", Machine, Abi); }
};

// Each architecture's table, named by its registry row (target/target.h).
const ArchConventions &x86_64Conventions();
const ArchConventions &aarch64Conventions();
const ArchConventions &riscv64Conventions();
// The table of A's registry row, or null (Arch::Unknown, no table).
const ArchConventions *conventionsFor(Arch A);
// The same for an A known to have one (tests); use targetForTriple for user input.
const ArchConventions &archConventions(Arch A);
// Identifies the target from the triple's architecture prefix (Triple::parse).
// Only ELF platforms are modelled: Darwin and Windows change the conventions.
Expected<const ArchConventions *> targetForTriple(std::string_view Triple);

} // namespace linklab::callconv
