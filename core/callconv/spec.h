// A callconv spec: the short, hand-writable text ("gpr:rcx,rdx;ret:rax").
// Parsing is target-independent; register names are checked only when a plan
// binds the spec to a target's register table (plan.h).
#pragma once

#include "callconv/spec_keys.h"
#include "support/error.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace linklab::callconv {

struct Spec {
  // One list per role; nullopt: the segment was omitted (the standard
  // convention decides), an empty list: written but empty ("gpr:").
  std::array<std::optional<std::vector<std::string>>, NumSpecRoles> Lists;
  std::array<std::string, NumSpecRoles> KeyNames; // spelling used, for messages
  std::vector<std::string> Warnings;              // unknown keys, ignored

  const std::optional<std::vector<std::string>> &list(SpecRole R) const { return Lists[size_t(R)]; }
  // Canonical keys in role order, lower case, no whitespace: equal for
  // equivalent specs, so it names the convention (see ConventionId).
  std::string canonical() const;
};

// Errors name the segment and token; unknown keys become warnings.
Expected<Spec> parseSpec(std::string_view Text);

} // namespace linklab::callconv
