// linklab without -noexec: link into an executor process and run the entry.
#pragma once

#include "driver/options.h"

#include "session/link_info.h"
#include <functional>

namespace linklab::cli {

// Returns the program's exit code, or 1 after printing why it could not run
// or how it ended (a limit, a fault). Started runs once the executor is
// starting (its start is a run's longest wait): work the link needs first
// that need not delay the executor.
int runInExecutor(
    const driver::Options &O, const std::function<void()> &Started = [] {});

// The command ends here with Code. What is left to free (the session's
// graphs, the link info, the pipes) the kernel takes back at once, where
// running every destructor cost a hello world's start-up 2-3 ms. The
// executor is reaped before (FdTransport::closeAndReap): none outlives the
// command, not even as a zombie.
[[noreturn]] void exitWithoutTeardown(int Code);

// -perf-support: tells perf about the linked functions of Objects as a JIT
// does, in both of perf's forms: a map, /tmp/perf-<pid>.map, and a jitdump
// (code bytes included) in $JITDUMPDIR/.debug/jit/llvm-IR-jit-<date>-<tmp>/
// jit-<pid>.dump, where llvm-jitlink writes its own. TT names the code's ISA.
Error writePerfSupportFiles(const std::vector<ObjectLinkInfo> &Objects, const Triple &TT);

} // namespace linklab::cli
