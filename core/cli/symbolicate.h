// -symbolicate-with SYMTAB FILE...: rewrite backtraces with the names of a
// symbol table that -write-symtab wrote (llvm-jitlink's symbolication mode).
#pragma once

#include "driver/options.h"

namespace linklab::cli {

// Prints each input (a backtrace, "-" for stdin) with every line that ends in
// a hex address near a symbol of O.symbolicateWith annotated; 1 on an error.
int symbolicateCommand(const driver::Options &O);

} // namespace linklab::cli
