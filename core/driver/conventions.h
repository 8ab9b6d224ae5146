// A session's calling conventions, shared by the `linklab` command (-cc,
// -call) and the wasm package (`conventions`, addConvention).
#pragma once

#include "callconv/embedded.h"
#include "session/session.h"

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace linklab::driver {

// A session's calling conventions as its inputs arrive: entries given by
// name (-cc, the wasm API's `conventions`) and each object's
// .linklab.callconv section. The bridge-thunk pass joins the session at
// construction and reads the table as it grows, so objects added later get
// thunks too. Entries given before the session knows its target (no object
// yet) are planned, and their errors returned, when the first object comes.
// Planner warnings go to Warn as entries are added; the pass's (an address of
// a custom-convention function taken) as each object is linked. Shared by the
// native CLI and the wasm bindings; S must outlive it.
class SessionConventions {
public:
  using WarningFn = std::function<void(const std::string &)>;
  SessionConventions(Session &S, WarningFn Warn);
  // Errors name Origin and the entry; on a target the planner does not know,
  // an entry is an error and an object's section is ignored (as is its absence).
  Error addEntry(std::string_view Entry, const std::string &Origin);
  Error addObject(const std::string &Name, std::span<const char> Bytes);
  // Null until the target is known, and when the planner does not know it.
  std::shared_ptr<const callconv::ConventionTable> table() const { return Table; }

private:
  class Slot;
  Error makeTable();
  Error added(Error E);
  Session &S;
  WarningFn Warn;
  std::shared_ptr<Slot> Thunks;
  std::shared_ptr<callconv::ConventionTable> Table;
  std::vector<std::pair<std::string, std::string>> Pending; // entry, origin
  size_t WarningsShown = 0;
};

} // namespace linklab::driver
