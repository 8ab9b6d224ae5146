// Which functions use which convention, as the linker learns it: from the
// CLI/API (-cc=ENTRY) or from a `.linklab.callconv` section in an object.
//
// Entry format (both places): "SYMBOL=SIGNATURE;SPEC-OR-PLAN", e.g.
//   add3=i64(i64,i64,i64);gpr:rcx,r8,r11;ret:rax
// Everything after the first ';' is the spec or plan text (which itself
// contains ';'). The section is non-alloc PROGBITS holding NUL-terminated
// entries, written from assembly with
//   .section .linklab.callconv,"",@progbits
//   .asciz "add3=i64(i64,i64,i64);gpr:rcx,r8,r11;ret:rax"
// Embedded plans ("v1;...") are validated against the link's target, never
// regenerated: a plan for another schema, target or convention is refused.
// "@NAME" instead of a spec names a convention a plugin registered
// (registry.h): its callback plans the function.
#pragma once

#include "callconv/plan.h"
#include "callconv/registry.h"

#include <map>
#include <span>

namespace linklab::callconv {

inline constexpr std::string_view ConventionSectionName = ".linklab.callconv";

class ConventionTable {
public:
  // Registry: the plugin conventions "@NAME" entries may name (none: such
  // entries are refused).
  explicit ConventionTable(const ArchConventions &T, const ConventionRegistry *Registry = nullptr)
      : Target(&T), Registry(Registry) {}
  const ArchConventions &target() const { return *Target; }

  // Adds one entry; Origin names where it came from in errors
  // ("-cc", "a.o: .linklab.callconv entry 2"). A symbol given twice is an error.
  Error add(std::string_view Entry, const std::string &Origin);
  // Adds every entry of Object's .linklab.callconv section (none: no-op).
  Error addObject(const std::string &Name, std::span<const char> Object);

  const Plan *find(std::string_view Symbol) const;
  bool empty() const { return Plans.empty(); }
  // Planner warnings, each prefixed with the entry's origin.
  const std::vector<std::string> &warnings() const { return Warnings; }

private:
  const ArchConventions *Target;
  const ConventionRegistry *Registry;
  std::map<std::string, Plan, std::less<>> Plans;
  std::map<std::string, std::string, std::less<>> Origins;
  std::vector<std::string> Warnings;
};

} // namespace linklab::callconv
