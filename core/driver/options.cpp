#include "driver/options.h"

#include "driver/settings.h"
#include "protocol/address_plan.h"

namespace linklab::driver {

namespace {
enum class Kind { Flag, Value, List, RestOfLine };
struct OptionSpec {
  const char *name;
  Kind kind;
  const char *help;
  void *(*field)(Options &);
};
#define FIELD(F) [](Options &O) -> void * { return &O.F; }

// One row per option; -abs has the older alias -define-abs.
const OptionSpec Specs[] = {
    {"noexec", Kind::Flag, "link, but do not run", FIELD(noExec)},
    {"entry", Kind::Value, "entry point symbol (default: main; _main for MachO)", FIELD(entry)},
    {"triple", Kind::Value, "target triple (default: from the first object)", FIELD(triple)},
    {"env", Kind::List, "NAME=VALUE: add to the program's environment (empty by default)", FIELD(env)},
    {"file", Kind::List, "NAME=PATH: the program finds PATH's bytes at NAME (read-only; relative to its /)",
     FIELD(files)},
    {"args", Kind::RestOfLine, "the rest of the line is the program's argv", FIELD(args)},
    {"harness", Kind::RestOfLine, "the rest of the line are test harness objects", FIELD(harnesses)},
    {"phony-externals", Kind::Flag, "resolve all undefined symbols to 0", FIELD(phonyExternals)},
    {"abs", Kind::List, "NAME=ADDR: define an absolute symbol", FIELD(absolutes)},
    {"define-abs", Kind::List, "older name of -abs", FIELD(absolutes)},
    {"l", Kind::List, "link the static archive lib<NAME>.a (searched in -L paths)", FIELD(libraries)},
    {"L", Kind::List, "add a library search path", FIELD(libraryPaths)},
    {"slab-allocate", Kind::Value, "allocate from a slab of this size (e.g. 1Mb, 64Kb)", FIELD(slabAllocate)},
    {"slab-address", Kind::Value, "target address of the slab (deterministic layouts)", FIELD(slabAddress)},
    {"slab-page-size", Kind::Value, "page size used for the slab", FIELD(slabPageSize)},
    {"show-graphs", Kind::List, "REGEX: dump graphs whose name matches, after fixups", FIELD(showGraphs)},
    {"show-addrs", Kind::Flag, "print symbol, GOT and stub addresses", FIELD(showAddrs)},
    {"show-init-es", Kind::Flag, "print the symbol tables before linking (as llvm-jitlink's ExecutionSession dump)",
     FIELD(showInitEs)},
    {"show-entry-es", Kind::Flag, "print the symbol tables once the entry is linked", FIELD(showEntryEs)},
    {"all_load", Kind::Flag, "link every object member of every archive, needed or not", FIELD(allLoad)},
    {"sectcreate", Kind::List, "SECTION,FILE[@SYMBOL=OFFSET,...]: a read-only section holding FILE's bytes",
     FIELD(sectCreates)},
    {"jd", Kind::List, "NAME: a JITDylib for the inputs after it; -lNAME links it (each must be linked so)",
     FIELD(jitDylibs)},
    {"weak_library", Kind::List,
     "FILE: every name FILE (a .tbd stub or a MachO dylib) exports for the link's arch resolves to null",
     FIELD(weakLibraries)},
    {"add-self-relocations", Kind::Flag,
     "give the pointers x86-64 functions form to themselves (leaq f(%rip)) relocations", FIELD(addSelfRelocations)},
    {"write-symtab", Kind::Value, "FILE: write each linked object's symbols and their addresses", FIELD(writeSymtab)},
    {"symbolicate-with", Kind::Value,
     "SYMTAB: link nothing; print the backtraces named (- for stdin) with SYMTAB's (-write-symtab) symbol names",
     FIELD(symbolicateWith)},
    {"debugger-support", Kind::Flag,
     "=false only: linklab registers no objects with a debugger in its own process (see -gdb, -debug-script)",
     FIELD(debuggerSupport)},
    {"show-times", Kind::Flag, "print the time each stage took", FIELD(showTimes)},
    {"perf-support", Kind::Flag,
     "tell perf about the linked functions: /tmp/perf-<pid>.map and a jitdump under $JITDUMPDIR/.debug/jit",
     FIELD(perfSupport)},
    {"gdb", Kind::Value,
     "[=HOST:PORT]: stop the program at its entry and wait for gdb-multiarch (default 127.0.0.1, a free port)",
     FIELD(gdb)},
    {"debug-script", Kind::Value, "FILE: write a gdb script loading each linked object's symbols at its addresses",
     FIELD(debugScript)},
    {"show-relocated-section-contents", Kind::Flag, "hex-dump sections after fixups", FIELD(showRelocated)},
    {"check", Kind::List, "FILE: evaluate its '# jitlink-check:' lines", FIELD(checkFiles)},
    {"check-name", Kind::Value, "NAME: rules are the lines starting '# NAME:' (default jitlink-check)",
     FIELD(checkName)},
    {"num-threads", Kind::Value, "N: accepted as llvm-jitlink does; linklab links on one thread", FIELD(numThreads)},
    {"oop-executor", Kind::Value, "run in an executor process (optional PATH)", FIELD(oopExecutor)},
    {"oop-executor-connect", Kind::Value, "HOST:PORT of a running executor", FIELD(oopExecutorConnect)},
    {"max-instructions", Kind::Value, "N: stop the program after N instructions", FIELD(maxInstructions)},
    {"timeout-ms", Kind::Value, "N: stop the program after N ms of wall time (default 60000)", FIELD(timeoutMs)},
    {"max-memory", Kind::Value, "SIZE: cap the memory the program obtains at run time (e.g. 64Mb)", FIELD(maxMemory)},
    {"runtime", Kind::Value, "default|none|glibc: the C runtime linked (also with -noexec)", FIELD(runtime)},
    {"no-process-syms", Kind::Flag, "resolve nothing against the C runtime (as -runtime=none)", FIELD(noProcessSyms)},
    {"cc", Kind::List, "SYMBOL=SIGNATURE;SPEC-OR-PLAN: SYMBOL's calling convention (calls from C get bridge thunks)",
     FIELD(conventions)},
    {"call", Kind::Value, "SYMBOL: call it through its plan instead of running main; print the results",
     FIELD(callSymbol)},
    {"call-sig", Kind::Value, "SIGNATURE of the -call function, e.g. 'i64(i64,f64)'", FIELD(callSignature)},
    {"call-conv", Kind::Value, "SPEC or plan for -call (default: its -cc/embedded convention, else the standard one)",
     FIELD(callConvention)},
    {"call-args", Kind::Value, "comma-separated argument values for -call (ints, floats, bytes:HEX)", FIELD(callArgs)},
    {"export-test", Kind::Value, "DIR: write the session as a lit test (objects as .s or YAML, RUN lines, checks)",
     FIELD(exportTest)},
    {"export-check", Kind::List, "SYMBOL or SYMBOL+OFFSET: the block / fixup site -export-test checks (default: all)",
     FIELD(exportChecks)},
    {"reduce", Kind::Flag, "shrink the failing inputs while the failure holds (see -reduce-error/-exit/-output)",
     FIELD(reduce)},
    {"reduce-error", Kind::Value, "TEXT: the failure is an error message containing TEXT", FIELD(reduceError)},
    {"reduce-exit", Kind::Value, "N: the failure is exit status N", FIELD(reduceExit)},
    {"reduce-output", Kind::Value, "FILE: the failure is output that differs from FILE's", FIELD(reduceOutput)},
    {"reduce-time", Kind::Value, "SECONDS: stop reducing after this long (default 60)", FIELD(reduceTime)},
    {"reduce-out", Kind::Value, "DIR: where -reduce writes the reduced inputs and test (default: reduced)",
     FIELD(reduceOut)},
    {"save-bundle", Kind::Value, "FILE: write the run as a playground bundle (objects, options, args, stdin, outcome)",
     FIELD(saveBundle)},
    {"share-url", Kind::Value, "BASE: print the run's share link (BASE, the playground's URL, then #s=...)",
     FIELD(shareUrl)},
    {"help", Kind::Flag, "print this help", FIELD(help)},
    {"version", Kind::Flag, "print linklab's version (the one its bundles record)", FIELD(version)},
};
#undef FIELD
} // namespace

std::string usage() {
  std::string U = "USAGE: linklab [options] <input objects and archives>\n\nOPTIONS:\n";
  for (auto &S : Specs)
    U += formatv("  -%-34s %s\n", (std::string(S.name) + (S.kind == Kind::Flag ? "" : "=<value>")).c_str(), S.help);
  return U;
}

bool placesAsRun(const Options &O) { return O.slabAddress.empty() && O.slabPageSize.empty() && O.slabAllocate.empty(); }

bool recordsLinkInfo(const Options &O) {
  return !O.showGraphs.empty() || O.showAddrs || O.showRelocated || !O.checkFiles.empty() || O.perfSupport ||
         !O.debugScript.empty();
}

bool recordsContents(const Options &O) {
  return O.showRelocated || !O.checkFiles.empty() || O.perfSupport || !O.debugScript.empty();
}

Expected<std::unique_ptr<SlabMemoryManager>> makeSlab(const Options &O) {
  // No slab asked for: the addresses a run would give (issue 31), the
  // executor's reservations predicted in the order the link makes them.
  if (placesAsRun(O))
    return std::make_unique<SlabMemoryManager>(executor::ReservationPlan::PageSize, executor::reservationsAsRun());
  return makeSlab({"-slab-address", O.slabAddress}, {"-slab-page-size", O.slabPageSize},
                  {"-slab-allocate", O.slabAllocate});
}

Expected<executor::Limits> runLimits(const Options &O) {
  return parseLimits({"-max-instructions", O.maxInstructions}, {"-timeout-ms", O.timeoutMs},
                     {"-max-memory", O.maxMemory});
}

Expected<Options> parseOptions(int Argc, char **Argv) {
  Options O;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A.size() < 2 || A[0] != '-') {
      O.inputs.push_back(A);
      continue;
    }
    std::string Body = A.substr(A[1] == '-' ? 2 : 1);
    std::string Name = Body, Value;
    bool HasValue = false;
    if (size_t Eq = Body.find('='); Eq != std::string::npos) {
      Name = Body.substr(0, Eq);
      Value = Body.substr(Eq + 1);
      HasValue = true;
    }
    const OptionSpec *Spec = nullptr;
    for (auto &S : Specs)
      if (Name == S.name)
        Spec = &S;
    // -lfoo and -L/dir, as compilers spell them.
    if (!Spec && (Body[0] == 'l' || Body[0] == 'L') && Body.size() > 1) {
      (Body[0] == 'l' ? O.libraries : O.libraryPaths).push_back(Body.substr(1));
      continue;
    }
    if (!Spec)
      return makeError(formatv("unknown option '%s' (see -help)", A.c_str()));
    void *F = Spec->field(O);
    switch (Spec->kind) {
    case Kind::Flag:
      if (HasValue && Value != "true" && Value != "false" && Value != "1" && Value != "0")
        return makeError(formatv("option '-%s' takes no value", Spec->name));
      *static_cast<bool *>(F) = !HasValue || Value == "true" || Value == "1";
      break;
    case Kind::Value:
    case Kind::List:
      if (!HasValue) {
        if (Name == "oop-executor") // optional value
          break;
        if (Name == "gdb") { // optional value
          O.gdb = "127.0.0.1:0";
          break;
        }
        if (I + 1 >= Argc)
          return makeError(formatv("option '-%s' needs a value", Spec->name));
        Value = Argv[++I];
      }
      if (Spec->kind == Kind::Value)
        *static_cast<std::string *>(F) = Value;
      else
        static_cast<std::vector<std::string> *>(F)->push_back(Value);
      break;
    case Kind::RestOfLine: {
      auto *V = static_cast<std::vector<std::string> *>(F);
      if (HasValue)
        V->push_back(Value);
      for (++I; I < Argc; ++I)
        V->push_back(Argv[I]);
      break;
    }
    }
  }
  return O;
}

} // namespace linklab::driver
