// Bridge thunks: standard-convention code calling a function that has a
// custom convention goes through a small generated function that moves the
// arguments from their standard locations to the planned ones, calls, moves
// the results back and keeps what the standard ABI promises callers.
#pragma once

#include "callconv/embedded.h"
#include "session/session.h"

#include <functional>

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

// Adds buildBridgeThunks to every link of a session. Warnings go to Warn as
// each graph is linked: objects link lazily (a lookup, running main), so a
// caller cannot wait for "after the link" to report them.
class BridgeThunkPlugin : public Plugin {
public:
  using WarningHandler = std::function<void(const std::string &)>;
  BridgeThunkPlugin(std::shared_ptr<const ConventionTable> T, WarningHandler Warn)
      : Table(std::move(T)), Warn(std::move(Warn)) {}
  void modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &Config) override;

private:
  std::shared_ptr<const ConventionTable> Table;
  WarningHandler Warn;
};

} // namespace linklab::callconv
