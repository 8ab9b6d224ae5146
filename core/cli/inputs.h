// The inputs a command line names, added to a session the same way whether
// the link runs (-oop-executor...) or not (-noexec): objects, harness
// objects, -l archives from the -L paths, -abs symbols, -phony-externals.
#pragma once

#include "cli/options.h"
#include "link/session.h"

namespace linklab::cli {

Error addInputs(const Options &O, Session &S);

} // namespace linklab::cli
