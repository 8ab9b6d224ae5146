// Bridge thunks: standard-convention code calling a function that has a
// custom convention goes through a small generated function that moves the
// arguments from their standard locations to the planned ones, calls, moves
// the results back and keeps what the standard ABI promises callers.
#pragma once

#include "callconv/embedded.h"
#include "link/session.h"

namespace linklab::callconv {

inline constexpr std::string_view ThunkSectionName = "$__CCTHUNKS";

// For every direct-call edge (the arch's branch kinds) from standard code
// (a block defining no symbol with a convention) to a symbol in T, creates
// once per callee a thunk block "<symbol>.ccthunk" in $__CCTHUNKS and
// retargets the edge to it. Any other reference to such a symbol (its
// address taken) adds planIndirectCall's warning to Warnings.
// Runs after pruning, before the GOT/stub builders (which then route the
// thunk's own call to an external callee through a stub).
Error buildBridgeThunks(LinkGraph &G, const ConventionTable &T, std::vector<std::string> &Warnings);

// Adds buildBridgeThunks to every link of a session.
class BridgeThunkPlugin : public Plugin {
public:
  explicit BridgeThunkPlugin(std::shared_ptr<const ConventionTable> T) : Table(std::move(T)) {}
  void modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &Config) override;
  const std::vector<std::string> &warnings() const { return Warnings; }

private:
  std::shared_ptr<const ConventionTable> Table;
  std::vector<std::string> Warnings;
};

} // namespace linklab::callconv
