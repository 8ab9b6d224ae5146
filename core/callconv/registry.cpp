#include "callconv/registry.h"

namespace linklab::callconv {

Error ConventionRegistry::add(std::string_view Name, PlanCallback Callback) {
  bool Valid = !Name.empty() && Callback;
  for (char C : Name)
    Valid &= (C >= 'a' && C <= 'z') || (C >= '0' && C <= '9') || C == '_' || C == '.' || C == '-';
  if (!Valid)
    return makeError(formatv("callconv: cannot register convention '%.*s': names are "
                             "[a-z0-9_.-]+ and need a callback",
                             int(Name.size()), Name.data()));
  if (contains(Name))
    return makeError(formatv("callconv: convention '%.*s' is already registered", int(Name.size()), Name.data()));
  Entries.emplace_back(std::string(Name), std::move(Callback));
  return Error::success();
}

bool ConventionRegistry::contains(std::string_view Name) const {
  for (const auto &E : Entries)
    if (E.first == Name)
      return true;
  return false;
}

Expected<Plan> ConventionRegistry::plan(std::string_view Name, const ArchConventions &Target,
                                        const Signature &Sig) const {
  std::string Ctx = formatv("convention '%.*s'", int(Name.size()), Name.data());
  for (const auto &[Registered, Callback] : Entries) {
    if (Registered != Name)
      continue;
    // Checked before the callback runs: a plugin must not see a variadic
    // signature it might plan only the named part of.
    if (Error E = checkPlannable(Target, Sig))
      return std::move(E).withContext(Ctx);
    auto Table = Callback(Target, Sig);
    if (!Table)
      return Table.takeError().withContext(Ctx);
    Table->Convention = conventionOfPlugin(Name);
    auto P = Plan::create(Target, Sig, std::move(*Table));
    if (!P)
      return P.takeError().withContext(Ctx);
    return P;
  }
  std::string Known;
  for (const auto &E : Entries)
    Known += (Known.empty() ? "" : ", ") + E.first;
  return makeError(Ctx + ": not registered (registered: " + (Known.empty() ? "none" : Known) + ")");
}

} // namespace linklab::callconv
