// linklab's calling-convention options (-cc, -call, -call-sig, -call-conv,
// -call-args), applied to a program before it runs.
#pragma once

#include "cli/options.h"
#include "exec/program.h"

#include <optional>

namespace linklab::cli {

// Reads -cc entries and every input object's .linklab.callconv section,
// installs the bridge-thunk pass, and, with -call, calls that function
// through its plan and prints one line per result. Returns the exit code
// when it handled the run (a -call, or an error it printed); nullopt when
// main should run as usual. Planner warnings go to stderr.
std::optional<int> applyConventions(const Options &O, exec::Program &P, const executor::Limits &L);

} // namespace linklab::cli
