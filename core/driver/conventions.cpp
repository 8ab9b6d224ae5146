#include "driver/conventions.h"

#include "callconv/thunks.h"
#include "target/target.h"

namespace linklab::driver {

// Joins the session at once, so its pass sits where the session's later
// plugins expect it; it forwards to the bridge-thunk plugin once there is a
// table (with no convention, that plugin changes nothing either).
class SessionConventions::Slot : public Plugin {
public:
  std::shared_ptr<callconv::BridgeThunkPlugin> Thunks;
  void modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &C) override {
    if (Thunks)
      Thunks->modifyPassConfig(MR, G, C);
  }
};

SessionConventions::SessionConventions(Session &S, WarningFn Warn)
    : S(S), Warn(std::move(Warn)), Thunks(std::make_shared<Slot>()) {
  S.addPlugin(Thunks);
}

Error SessionConventions::addEntry(std::string_view Entry, const std::string &Origin) {
  if (S.triple().arch == Arch::Unknown) { // no object yet: planned when the target is known
    Pending.emplace_back(Entry, Origin);
    return Error::success();
  }
  if (Error E = makeTable())
    return E;
  if (!Table)
    return callconv::targetForTriple(fullTriple(S.triple())).takeError();
  return added(Table->add(Entry, Origin));
}

Error SessionConventions::addObject(const std::string &Name, std::span<const char> Bytes) {
  if (Error E = makeTable())
    return E;
  return Table ? added(Table->addObject(Name, Bytes)) : Error::success();
}

// Once the session has a target: its table (none for a target the planner
// does not know, which matters only if a convention was asked for) and the
// entries given before.
Error SessionConventions::makeTable() {
  if (Table || S.triple().arch == Arch::Unknown)
    return Error::success();
  auto T = callconv::targetForTriple(fullTriple(S.triple()));
  if (T) {
    Table = std::make_shared<callconv::ConventionTable>(**T);
    Thunks->Thunks = std::make_shared<callconv::BridgeThunkPlugin>(Table, Warn);
  }
  auto Entries = std::move(Pending);
  Pending.clear();
  if (!T) { // an unknown target matters only when a convention was asked for
    if (!Entries.empty())
      return T.takeError();
    consumeError(T.takeError());
  }
  for (auto &[Entry, Origin] : Entries) {
    if (Error E = added(Table->add(Entry, Origin)))
      return E;
  }
  return Error::success();
}

// Shows the planner warnings the last addition made.
Error SessionConventions::added(Error E) {
  if (E)
    return E;
  for (auto &W = Table->warnings(); WarningsShown < W.size(); ++WarningsShown)
    Warn(W[WarningsShown]);
  return Error::success();
}

} // namespace linklab::driver
