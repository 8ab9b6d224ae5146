// linklab -export-test=DIR and -reduce: each link or run of a candidate is
// this linklab (or llvm-jitlink-22, to see whether it agrees) started as a
// child process on objects written to a scratch folder, so a crash, a hang
// cut by the run limits, or a program's output cannot disturb the command.
#pragma once

#include "driver/options.h"

namespace linklab::cli {

int exportTestCommand(const driver::Options &O);
int reduceCommand(const driver::Options &O);

} // namespace linklab::cli
