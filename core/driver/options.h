// Command-line options of `linklab`, spelled as llvm-jitlink 22 spells them
// (-name, -name=value or -name value, --name too). `linklab-run` (the
// package's CLI) parses its command line with the same table.
#pragma once

#include "link/slab_memory_manager.h"
#include "protocol/protocol.h"
#include "support/error.h"

#include <memory>
#include <string>
#include <vector>

namespace linklab::driver {

struct Options {
  std::vector<std::string> inputs; // objects and archives, in order
  std::vector<std::string> harnesses;
  std::vector<std::string> args;  // the program's whole argv (-args ...)
  std::vector<std::string> env;   // NAME=VALUE: the program's environment (-env, repeatable)
  std::vector<std::string> files; // NAME=PATH: input files in the program's file system (-file, repeatable)
  std::vector<std::string> libraries, libraryPaths; // -l, -L
  std::vector<std::string> absolutes;               // NAME=ADDR
  std::vector<std::string> showGraphs;              // regexes
  std::vector<std::string> checkFiles;
  std::string checkName = "jitlink-check";
  std::string entry; // empty: driver::entrySymbol's default
  std::string triple;
  std::string slabAllocate, slabAddress, slabPageSize;
  std::string oopExecutor, oopExecutorConnect;
  // llvm-jitlink's materialization thread count: checked, no effect (linklab links on one thread).
  std::string numThreads;
  bool noExec = false, phonyExternals = false, showAddrs = false, showTimes = false, showRelocated = false;
  bool perfSupport = false;
  // llvm-jitlink's -show-init-es / -show-entry-es (the symbol tables before
  // linking / once the entry is linked), -all_load (every object member of
  // every archive), -sectcreate (SECTION,FILE[@SYMBOL=OFFSET,...]).
  bool showInitEs = false, showEntryEs = false, allLoad = false;
  std::vector<std::string> sectCreates;
  // -weak_library FILE (a .tbd stub or MachO dylib): its exported names
  // resolve to null; -add-self-relocations: edges for the pointers x86-64
  // functions form to themselves (arch/x86_64_self_relocations.h);
  // -write-symtab FILE: each linked object's symbols and addresses, as
  // llvm-jitlink writes them for symbolication; -debugger-support: only
  // =false is accepted (linklab registers nothing with a debugger in its own
  // process: -gdb and -debug-script debug a run).
  std::vector<std::string> weakLibraries;
  // -jd NAME: llvm-jitlink puts the inputs after it in JITDylib NAME, which
  // -lNAME links against. linklab links one namespace, which resolves alike
  // when every JITDylib is linked (readInputs checks that).
  std::vector<std::string> jitDylibs;
  bool addSelfRelocations = false, debuggerSupport = false;
  std::string writeSymtab;
  // -symbolicate-with SYMTAB: no link; the inputs are backtraces, printed
  // with the names of a table -write-symtab wrote (core/cli/symbolicate.h).
  std::string symbolicateWith;
  // Debugging (core/cli/debug_cli.cpp): HOST:PORT gdb attaches to (-gdb
  // alone: loopback, a free port), and the gdb script that loads the linked
  // objects' symbols and DWARF at their addresses.
  std::string gdb, debugScript;
  bool help = false, version = false;
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
  // A run as the playground's bundle file / share link (core/repro/bundle.h).
  std::string saveBundle, shareUrl;
  std::vector<std::string> exportChecks;
  bool reduce = false;
  std::string reduceTime = "60", reduceOut = "reduced", reduceError, reduceExit, reduceOutput;
};

Expected<Options> parseOptions(int Argc, char **Argv);
std::string usage();
// -slab-address, -slab-page-size, -slab-allocate and the run limits (as
// settings.h parses them), errors naming the options. Without a -slab-*
// option, the -noexec link is placed where a run would place it.
Expected<std::unique_ptr<SlabMemoryManager>> makeSlab(const Options &O);
// No -slab-* option: -noexec places the link as a run would.
bool placesAsRun(const Options &O);
// What a -noexec link of O records: link info when something shows or
// checks what was linked (recording copies every symbol name of every
// graph); the linked bytes too when -check reads them, -show-relocated-
// section-contents prints them, a jitdump carries the code or
// -debug-script's image the call-frame information.
bool recordsLinkInfo(const Options &O);
bool recordsContents(const Options &O);
Expected<executor::Limits> runLimits(const Options &O);

} // namespace linklab::driver
