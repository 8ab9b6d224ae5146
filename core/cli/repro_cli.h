// linklab -export-test=DIR and -reduce: each link or run of a candidate is
// this linklab (or llvm-jitlink-22, to see whether it agrees) started as a
// child process on objects written to a scratch folder, so a crash, a hang
// cut by the run limits, or a program's output cannot disturb the command.
// The run a test is exported from (the session's, the reduced case's) runs
// in the command itself, and the exporter takes its outcome from the run's
// record (cli::RunRecord): a fault is a fault because the executor said so.
#pragma once

#include "driver/options.h"

#include <functional>

namespace linklab::cli {

// A run's session runs in this command (cli::runInExecutor), whose record
// of the run is the test's outcome: Started as runInExecutor takes it.
int exportTestCommand(const driver::Options &O, const std::function<void()> &Started);
int reduceCommand(const driver::Options &O);

} // namespace linklab::cli
