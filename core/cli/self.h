// This program: the name its errors give, and its own path.
#pragma once

#include "support/error.h"

#include <string>

namespace linklab::cli {

// Prints "<program> error: <message>" and returns 1. The program is named as
// it was invoked (argv[0]'s base name), so linklab installed in place of
// llvm-jitlink reports errors as llvm-jitlink does.
int fail(const Error &E);
void setProgramName(const char *Argv0);

// This program's own path (/proc/self/exe), or "linklab" where it cannot be read.
std::string selfPath();

} // namespace linklab::cli
