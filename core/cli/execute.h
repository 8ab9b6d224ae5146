// linklab without -noexec: link into an executor process and run the entry.
#pragma once

#include "cli/options.h"

namespace linklab::cli {

// Returns the program's exit code, or 1 after printing why it could not run
// or how it ended (a limit, a fault).
int runInExecutor(const Options &O);

} // namespace linklab::cli
