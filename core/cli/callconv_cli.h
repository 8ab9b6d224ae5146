// linklab's calling-convention options (-cc, -call, -call-sig, -call-conv,
// -call-args), applied to a link before it runs.
#pragma once

#include "cli/inputs.h"
#include "driver/conventions.h"
#include "driver/options.h"
#include "program/program.h"

#include <optional>

namespace linklab::cli {

// -cc entries, then every input and harness object's .linklab.callconv, into
// a driver::SessionConventions warning on stderr. Used by both the executor
// path and -noexec, so both link the same graphs. Returns the table (null when the
// planner does not know the target and no convention was asked for).
Expected<std::shared_ptr<const callconv::ConventionTable>>
installConventions(const driver::Options &O, const std::vector<Input> &Inputs, Session &S);

// installConventions, then, with -call, calls that function through its
// plan and prints one line per result. Returns the exit code when it handled
// the run (a -call, or an error it printed); nullopt when main should run as
// usual.
std::optional<int> applyConventions(const driver::Options &O, const std::vector<Input> &Inputs, exec::Program &P,
                                    const executor::Limits &L);

} // namespace linklab::cli
