// Command-line options of `linklab`, spelled as llvm-jitlink 22 spells them
// (-name, -name=value or -name value, --name too).
#pragma once

#include "executor/protocol.h"
#include "link/slab_memory_manager.h"
#include "support/error.h"
#include "support/triple.h"

#include <memory>
#include <string>
#include <vector>

namespace linklab::cli {

struct Options {
  std::vector<std::string> inputs; // objects and archives, in order
  std::vector<std::string> harnesses;
  std::vector<std::string> args; // the program's whole argv (-args ...)
  std::vector<std::string> env;  // NAME=VALUE: the program's environment (-env, repeatable)
  std::vector<std::string> libraries, libraryPaths; // -l, -L
  std::vector<std::string> absolutes;               // NAME=ADDR
  std::vector<std::string> showGraphs;              // regexes
  std::vector<std::string> checkFiles;
  std::string checkName = "jitlink-check";
  std::string entry; // empty: entrySymbol's default
  std::string triple;
  std::string slabAllocate, slabAddress, slabPageSize;
  std::string oopExecutor, oopExecutorConnect;
  // llvm-jitlink's materialization thread count: checked, no effect (linklab links on one thread).
  std::string numThreads;
  bool noExec = false, phonyExternals = false, showAddrs = false, showTimes = false, showRelocated = false;
  bool perfSupport = false;
  bool help = false;
  // Execution (core/cli/execute.cpp): limits per run, 0 = the executor's
  // default; which C runtime to link ("default" or "none"; llvm-jitlink's
  // -no-process-syms is "none": the C runtime is what a process's symbols
  // are to llvm-jitlink).
  std::string maxInstructions, timeoutMs, maxMemory, runtime = "default";
  bool noProcessSyms = false;
  // Calling conventions (core/cli/callconv_cli.cpp): SYMBOL=SIGNATURE;SPEC-OR-PLAN
  // entries, and a function to call through a plan instead of running main.
  std::vector<std::string> conventions;
  std::string callSymbol, callSignature, callConvention, callArgs;
  // Reproducers (core/cli/repro_cli.cpp): export the session as a lit test;
  // reduce a failing one (failure: an error substring, an exit status, or
  // output that differs from a file's).
  std::string exportTest;
  std::vector<std::string> exportChecks;
  bool reduce = false;
  std::string reduceTime = "60", reduceOut = "reduced", reduceError, reduceExit, reduceOutput;
};

Expected<Options> parseOptions(int Argc, char **Argv);
// -entry, or the C main as the object format spells it (llvm-jitlink's
// default: "_main" for MachO, "main" otherwise).
// The one place this default is spelled: the package, the page and the
// reproducers ask here (Entry empty: the default).
inline std::string entrySymbol(std::string_view Entry, const Triple &TT) {
  return !Entry.empty() ? std::string(Entry) : TT.format == ObjectFormat::MachO ? "_main" : "main";
}
inline std::string entrySymbol(const Options &O, const Triple &TT) { return entrySymbol(O.entry, TT); }
// Prints "<program> error: <message>" and returns 1. The program is named as
// it was invoked (argv[0]'s base name), so linklab installed in place of
// llvm-jitlink reports errors as llvm-jitlink does.
int fail(const Error &E);
void setProgramName(const char *Argv0);
std::string usage();
// "1Mb", "64Kb", "4096", "0x1000" -> bytes / value.
Expected<uint64_t> parseSize(const std::string &Opt, const std::string &V);
Expected<uint64_t> parseNumber(const std::string &Opt, const std::string &V);
// The -noexec slab from -slab-address, -slab-page-size, -slab-allocate
// (empty: 0x10000000, 4096, 896Mb).
Expected<std::unique_ptr<SlabMemoryManager>> makeSlab(const std::string &Address, const std::string &PageSize,
                                                      const std::string &Size);
// -max-instructions, -timeout-ms, -max-memory (each may be empty: no limit
// given); the wasm package takes its run limits through this too.
Expected<executor::Limits> parseLimits(const std::string &Instructions, const std::string &TimeoutMs,
                                       const std::string &Memory);

} // namespace linklab::cli
