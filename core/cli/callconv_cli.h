// linklab's calling-convention options (-cc, -call, -call-sig, -call-conv,
// -call-args), applied to a link before it runs.
#pragma once

#include "callconv/embedded.h"
#include "cli/inputs.h"
#include "cli/options.h"
#include "exec/program.h"

#include <functional>
#include <optional>
#include <span>

namespace linklab::cli {

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

// -cc entries, then every input and harness object's .linklab.callconv, into
// a SessionConventions warning on stderr. Used by both the executor path and
// -noexec, so both link the same graphs. Returns the table (null when the
// planner does not know the target and no convention was asked for).
Expected<std::shared_ptr<const callconv::ConventionTable>> installConventions(const Options &O,
                                                                            const std::vector<Input> &Inputs,
                                                                            Session &S);

// installConventions, then, with -call, calls that function through its
// plan and prints one line per result. Returns the exit code when it handled
// the run (a -call, or an error it printed); nullopt when main should run as
// usual.
std::optional<int> applyConventions(const Options &O, const std::vector<Input> &Inputs, exec::Program &P,
                                    const executor::Limits &L);

} // namespace linklab::cli
