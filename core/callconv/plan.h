// Plans: the exact, immutable, validated table of where every part of every
// argument and return value lives, bound to one target's register schema.
// A spec is what a user writes; a plan is what a back end, a thunk builder or
// the executor's "call through a plan" trusts. The only way to obtain a Plan
// is through Plan::create, which validates, so holding one is the proof.
#pragma once

#include "callconv/register_tables.h"
#include "callconv/signature.h"
#include "callconv/spec.h"

#include <string>
#include <vector>

namespace linklab::callconv {

inline constexpr std::string_view PlanVersion = "v1";

// Which convention a plan implements; the text writes it "<kind>:<hex id>".
struct ConventionId {
  enum Kind : uint32_t { Standard = 1, Spec = 2, Plugin = 3 };
  uint32_t K = Standard;
  uint32_t Id = 0; // Standard: the target's ABI code; Spec: hash of the
                   // canonical spec; Plugin: hash of the registered name
  std::string str() const;
  bool operator==(const ConventionId &) const = default;
};
ConventionId conventionOf(const Spec &S); // hashes S.canonical()
ConventionId conventionOfPlugin(std::string_view Name);

enum LocationFlags : uint32_t {
  SRetPointer = 1, // the hidden pointer to the caller's result memory
  ByValue = 2,     // part of (or pointer to a copy of) a by-value aggregate
  Indirect = 4,    // the location holds a pointer to a caller-made copy
  Fallback = 8,    // placed by the standard convention: the spec left it open
};

struct Location {
  bool InRegister = false;
  uint32_t Value = 0;  // return value 0, or the parameter index
  uint32_t Offset = 0; // of this part inside the value
  uint32_t Size = 0;   // bytes of the value carried here
  uint32_t Align = 1;
  int32_t Register = -1;    // DWARF number; -1 for stack parts
  int64_t StackOffset = -1; // from the stack pointer at the call instruction
                            // (before x86-64's call pushes the return address)
  uint32_t Flags = 0;
  // Filled in from the schema for register parts: the narrowest view that
  // holds Size ("ecx", "w3", "d0") and its width in bytes.
  std::string RegisterName;
  uint32_t RegisterBytes = 0;
  bool sameSlot(const Location &O) const {
    return InRegister == O.InRegister && Register == O.Register && StackOffset == O.StackOffset;
  }
};

// The raw table a plan is made of: what materialization, the text parser and
// plugin callbacks produce, and what Plan::create checks.
struct PlanTable {
  ConventionId Convention;
  uint32_t StackBytes = 0; // outgoing argument area, a multiple of 16
  std::vector<Location> Returns, Arguments;
  std::vector<uint16_t> CalleeSaved; // DWARF numbers, ascending
};

class Plan {
public:
  // Validates T against the target and signature: every value covered by
  // contiguous parts, registers from the schema, wide enough and of the right
  // class, no register or stack byte used twice. Errors begin with
  // "malformed plan: ".
  static Expected<Plan> create(const ArchConventions &Target, Signature Sig, PlanTable T,
                               std::vector<std::string> Warnings = {});

  const ArchConventions &target() const { return *Target; }
  const Signature &signature() const { return Sig; }
  const ConventionId &convention() const { return Table.Convention; }
  bool isStandard() const { return Table.Convention.K == ConventionId::Standard; }
  uint32_t stackBytes() const { return Table.StackBytes; }
  const std::vector<Location> &returns() const { return Table.Returns; }
  const std::vector<Location> &arguments() const { return Table.Arguments; }
  const std::vector<uint16_t> &calleeSaved() const { return Table.CalleeSaved; }
  const std::vector<std::string> &warnings() const { return Warnings; }
  // The plan text: "v1;schema=…;target=…;cc=…;stack=…;returns=…;arguments=…;callee-saved=…".
  std::string text() const;
  // For people and tests: the signature with each value's location, parts
  // joined by '+', stack parts as [sp+N], e.g. "rax(ecx, rdi+rsi, [sp+0])".
  std::string describe() const;

private:
  Plan() = default;
  const ArchConventions *Target = nullptr;
  Signature Sig;
  PlanTable Table;
  std::vector<std::string> Warnings;
};

// Refuses what no plan may describe (variadic functions): a clear error
// instead of a silent mis-pass of the variadic part.
Error checkPlannable(const ArchConventions &Target, const Signature &Sig);

// The target's standard convention (SysV, AAPCS64, LP64D) for Sig.
Expected<Plan> standardPlan(const ArchConventions &Target, const Signature &Sig);

// Input is a spec, or a plan text (it starts with "v1;"), which is validated,
// never regenerated. Expect, when given, is the convention the caller declared
// for the function (e.g. conventionOf the spec its symbol carries); a plan text
// for another convention is refused.
Expected<Plan> materialize(std::string_view Input, const Signature &Sig, const ArchConventions &Target,
                           std::optional<ConventionId> Expect = std::nullopt);

// All from text, as the tools take them: the target of Triple, the
// signature, then Input as for materialize ("" for the standard plan) and
// ExpectSpec as the declared convention ("" none, "standard", or a spec).
Expected<Plan> planFor(std::string_view Triple, std::string_view Signature, std::string_view Input,
                       std::string_view ExpectSpec);

// Parses and validates a plan text against the target and signature.
Expected<Plan> parsePlan(std::string_view Text, const Signature &Sig, const ArchConventions &Target,
                         std::optional<ConventionId> Expect = std::nullopt);

// An indirect call cannot know its callee's convention, so it uses the
// standard one: returns the standard plan for the callee's signature, and a
// warning in Warnings when the callee's own convention differs.
Expected<Plan> planIndirectCall(const Plan &Callee, std::string_view Symbol, std::vector<std::string> &Warnings);

// One value part moving from where the caller put it to where the callee wants
// it (arguments), or back (IsReturn). Parts already in place are omitted.
struct Move {
  bool IsReturn = false;
  Location From, To;
};
// What a bridge thunk between two conventions for one signature must do.
Expected<std::vector<Move>> bridgeMoves(const Plan &Caller, const Plan &Callee);

} // namespace linklab::callconv
