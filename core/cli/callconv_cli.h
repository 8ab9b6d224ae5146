// linklab's calling-convention options (-cc, -call, -call-sig, -call-conv,
// -call-args), applied to a link before it runs.
#pragma once

#include "callconv/embedded.h"
#include "driver/conventions.h"
#include "driver/options.h"
#include "program/program.h"

#include <optional>

namespace linklab::cli {

// A planner warning, as the command prints it ("linklab warning: ...").
void printWarning(const std::string &W);

// With -call, calls that function through its plan (Table: the link's
// conventions, -cc's and the objects' embedded ones, as driver::Link
// installed them; null when the planner does not know the target) and
// prints one line per result. Returns the exit code when it handled the run
// (a -call, or an error it printed); nullopt when main should run as usual.
std::optional<int> applyConventions(const driver::Options &O, const callconv::ConventionTable *Table, exec::Program &P,
                                    const executor::Limits &L);

} // namespace linklab::cli
