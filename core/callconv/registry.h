// Conventions registered by plugins: a name and a callback that produces the
// plan table directly, skipping the spec layer (for conventions a spec cannot
// express, e.g. values split across register classes). The result still goes
// through Plan::create, so a plugin cannot hand the back end an invalid plan.
#pragma once

#include "callconv/plan.h"

#include <functional>

namespace linklab::callconv {

// The callback fills Returns, Arguments, StackBytes and CalleeSaved; the
// registry sets the convention ID (conventionOfPlugin(name)).
using PlanCallback = std::function<Expected<PlanTable>(const ArchConventions &, const Signature &)>;

class ConventionRegistry {
public:
  // Names are lower-case [a-z0-9_.-]+ and registered once.
  Error add(std::string_view Name, PlanCallback Callback);
  bool contains(std::string_view Name) const;
  // Errors: unknown name, variadic signature, the callback's own error or a
  // malformed table, each prefixed "convention 'NAME': ".
  Expected<Plan> plan(std::string_view Name, const ArchConventions &Target, const Signature &Sig) const;

private:
  std::vector<std::pair<std::string, PlanCallback>> Entries;
};

} // namespace linklab::callconv
