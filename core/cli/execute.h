// linklab without -noexec: link into an executor process and run the entry.
#pragma once

#include "cli/options.h"
#include "link/link_info.h"

namespace linklab::cli {

// Returns the program's exit code, or 1 after printing why it could not run
// or how it ended (a limit, a fault).
int runInExecutor(const Options &O);

// -perf-support: writes the linked functions of Objects to /tmp/perf-<pid>.map,
// as a JIT tells perf about its code.
Error writePerfMap(const std::vector<ObjectLinkInfo> &Objects);

} // namespace linklab::cli
