// linklab without -noexec: link into an executor process and run the entry.
#pragma once

#include "driver/options.h"
#include "repro/bundle.h"

#include "session/link_info.h"
#include <functional>
#include <optional>

namespace linklab::cli {

// A run as data, for a caller that goes on with it (the exporter, the
// reducer): what the program wrote and read, and how it ended, as the
// executor reported it.
struct RunRecord {
  // Set by the caller: the program's stdin (else the command's own), and
  // whether what it writes goes to the command's stdout and stderr too.
  std::optional<std::string> input;
  bool echo = true;
  // Set by the run, once the link failed or the program ran (Ended).
  bool ended = false;
  std::string out, err, in;     // the program's stdout, stderr and what it read
  repro::BundleOutcome outcome; // the link's error, or the run's status, exit code and fault
  int signal = 0;               // the signal that ended the run (a fault's, or one the program raised)
  std::string report;           // how a run that did not exit ended ("program ..."), as the command prints it
  int status = 0;               // the command's exit status: the program's, 128+signal, or 1
};

// Returns the program's exit code, or 1 after printing why it could not run
// or how it ended (a limit, a fault). Started runs once the executor is
// starting (its start is a run's longest wait): work the link needs first
// that need not delay the executor. Without Record the command ends in
// here (exitWithoutTeardown); with it, the run is recorded there and this
// returns, the executor reaped.
int runInExecutor(
    const driver::Options &O, const std::function<void()> &Started = [] {}, RunRecord *Record = nullptr);

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
