// linklab's calling-convention options (-cc, -call, -call-sig, -call-conv,
// -call-args), applied to a link before it runs.
#pragma once

#include "callconv/embedded.h"
#include "cli/options.h"
#include "exec/program.h"

#include <optional>

namespace linklab::cli {

// Reads -cc entries and every input object's .linklab.callconv section and,
// when any convention is known, adds the bridge-thunk pass to S. Planner
// warnings go to stderr now; the pass's (an address of a custom-convention
// function taken) go there as each object is linked. Used by both the
// executor path and -noexec, so both link the same graphs. Returns the table
// (empty when there is nothing to do).
Expected<std::shared_ptr<const callconv::ConventionTable>> installConventions(const Options &O, Session &S);

// installConventions, then, with -call, calls that function through its
// plan and prints one line per result. Returns the exit code when it handled
// the run (a -call, or an error it printed); nullopt when main should run as
// usual.
std::optional<int> applyConventions(const Options &O, exec::Program &P, const executor::Limits &L);

} // namespace linklab::cli
