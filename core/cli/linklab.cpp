// linklab: link relocatable objects the way llvm-jitlink does, into a slab
// (-noexec) or an executor process, and report what happened.
#include "check/link_info_env.h"
#include "cli/callconv_cli.h"
#include "cli/debug_cli.h"
#include "cli/execute.h"
#include "cli/inputs.h"
#include "cli/repro_cli.h"
#include "cli/self.h"
#include "cli/symbolicate.h"
#include "cli/version.h"
#include "driver/command.h"
#include "driver/link.h"
#include "driver/options.h"
#include "program/program.h"
#include "session/link_info.h"
#include "session/session.h"
#include "support/huge_heap.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

using namespace linklab;
using cli::fail;

namespace {

struct Timer {
  using Clock = std::chrono::steady_clock;
  Clock::time_point Start = Clock::now();
  double ms() const { return std::chrono::duration<double, std::milli>(Clock::now() - Start).count(); }
};

// Runs every rule of each check file against the recorded link; false, with
// every failing rule printed to stderr, when any fails.
bool runCheckFiles(const std::vector<std::string> &Files, std::string_view Name, const check::CheckEnv &Env) {
  bool AllPassed = true;
  for (auto &F : Files) {
    auto Bytes = SharedBytes::readFile(F);
    if (!Bytes) {
      consumeError(Bytes.takeError()); // llvm-jitlink's wording instead
      std::fprintf(stderr, "%s: cannot open check file\n", F.c_str());
      AllPassed = false;
      continue;
    }
    check::CheckResult R = check::checkBuffer({Bytes->data(), Bytes->size()}, F, Name, Env);
    for (auto &Msg : R.failures)
      std::fprintf(stderr, "%s\n", Msg.c_str());
    if (R.rules && !R.failures.empty())
      std::fprintf(stderr, "%s: %zu of %u checks failed\n", F.c_str(), R.failures.size(), R.rules);
    AllPassed &= R.passed();
  }
  return AllPassed;
}

// A link faults in its fresh heap page by page: on the 500k-relocation
// benchmark that was a third of the CPU time, and a hello world linked with
// glibc touches 8-13 MB of heap (2,000 faults). So when the command links a
// C runtime (its archives are megabytes) or the objects named come to 1 MiB
// or more, the heap takes transparent huge pages (support/huge_heap.h).
void backHeapWithHugePages(const driver::Options &O) {
  bool LinksRuntime = O.runtime != "none" && !O.noProcessSyms;
  uint64_t InputBytes = 0;
  struct stat St;
  for (auto &In : O.inputs)
    if (stat(In.c_str(), &St) == 0 && S_ISREG(St.st_mode))
      InputBytes += uint64_t(St.st_size);
  if (LinksRuntime || InputBytes >= (1 << 20))
    linklab::backHeapWithHugePages();
}

int run(int Argc, char **Argv) {
  cli::setProgramName(Argv[0]);
  auto Opts = driver::parseOptions(Argc, Argv);
  if (!Opts)
    return fail(Opts.takeError());
  driver::Options &O = *Opts;
  if (O.help) {
    std::fputs(driver::usage().c_str(), stdout);
    return 0;
  }
  if (O.version) {
    std::printf("linklab version %s\n", cli::linklabVersion());
    return 0;
  }
  if (!O.triple.empty()) // every mode: a triple no target handles would drop the runtime silently
    if (auto T = driver::parseTriple({"-triple", O.triple}); !T)
      return fail(T.takeError());
  if (!O.numThreads.empty())
    if (auto N = driver::parseNumber({"-num-threads", O.numThreads}); !N)
      return fail(N.takeError());
  if (O.inputs.empty() && O.harnesses.empty())
    return fail(makeError("no input files (see -help)"));
  if (!O.symbolicateWith.empty()) // as llvm-jitlink: no link, whatever else the line asks
    return cli::symbolicateCommand(O);
  if (O.debuggerSupport)
    return fail(makeError("option '-debugger-support': linklab registers no objects with a debugger in its own "
                          "process; debug a run with -gdb, or write a gdb script with -debug-script (only "
                          "-debugger-support=false is accepted)"));
  auto Started = [&O] { backHeapWithHugePages(O); }; // the heap once the executor is on its way
  if (!O.reduce && !O.exportTest.empty())
    return cli::exportTestCommand(O, Started);
  if (!O.noExec && !O.reduce)
    return cli::runInExecutor(O, Started);
  backHeapWithHugePages(O);
  if (O.reduce)
    return cli::reduceCommand(O);
  if (!O.gdb.empty())
    return fail(makeError("option '-gdb' debugs a run: it cannot be used with -noexec"));

  Timer Total;
  Timer Load;
  auto Inputs = cli::readInputs(O);
  if (!Inputs)
    return fail(Inputs.takeError());
  // The link a run would make (issue 11): the runtime's archives and, for
  // main, its start object, unless -runtime=none or the target has none.
  Triple TT = O.triple.empty() ? Triple() : Triple::parse(O.triple);
  const exec::RuntimeSpec *Runtime = nullptr;
  exec::RuntimeFiles RuntimeFiles;
  if (auto T = cli::inputTriple(O, *Inputs)) {
    TT = *T;
    auto R = cli::selectRuntime(O, TT, /*Required=*/false);
    if (!R)
      return fail(R.takeError());
    if ((Runtime = *R)) {
      std::vector<std::pair<std::string, SharedBytes>> Reaching;
      for (auto &I : *Inputs)
        Reaching.push_back({I.name, I.bytes});
      auto Files = exec::readRuntimeFiles(*Runtime, Reaching);
      if (!Files)
        return fail(Files.takeError());
      RuntimeFiles = std::move(*Files);
    }
  } else {
    consumeError(T.takeError()); // only archives: the link names no target, as before
  }

  std::vector<std::regex> Patterns;
  for (auto &P : O.showGraphs) {
    try {
      Patterns.emplace_back(P);
    } catch (const std::regex_error &) {
      return fail(makeError(formatv("-show-graphs: '%s' is not a valid regular expression", P.c_str())));
    }
  }
  auto Slab = driver::makeSlab(O);
  if (!Slab)
    return fail(Slab.takeError());
  auto Made =
      driver::Link::slab(TT, std::move(*Slab), driver::placesAsRun(O), cli::printWarning, driver::recordsLinkInfo(O));
  driver::Link &L = *Made;
  Session &S = L.session();
  LinkInfoRecorder *Recorder = &L.linkInfo();
  Recorder->setDumpPatterns(std::move(Patterns));
  Recorder->setRecordContents(driver::recordsContents(O));
  if (Runtime)
    if (Error E = L.addRuntime(*Runtime, std::move(RuntimeFiles)))
      return fail(E);
  if (O.showInitEs || O.showEntryEs)
    S.recordProcessLookups();
  // The inputs, -abs, -sectcreate, -phony-externals; -cc and each object's
  // .linklab.callconv: the same bridge thunks a run would link.
  if (Error E = L.addInputs(*Inputs, O, SharedBytes::readFile))
    return fail(E);
  if (Error E = cli::addNativeOptions(O, S))
    return fail(E);
  double LoadMs = Load.ms();
  if (O.showInitEs)
    std::fputs(S.dumpSymbolTables(Runtime != nullptr).c_str(), stdout);

  Timer Link;
  // The entry as a run enters it: through the C runtime's start code.
  std::optional<Expected<Addr>> Entry;
  L.linkEntry(O.entry, [&Entry](Expected<Addr> A) { Entry.emplace(std::move(A)); });
  if (!Entry) // a slab answers at once
    return fail(makeError("internal error: the link of the entry did not finish"));
  double LinkMs = Link.ms();
  for (auto &Obj : Recorder->objects())
    if (!Obj.graphDump.empty())
      std::printf("Link graph \"%s\" post-fixup:\n%s", Obj.name.c_str(), Obj.graphDump.c_str());
  if (O.showEntryEs)
    std::fputs(S.dumpSymbolTables(Runtime != nullptr).c_str(), stdout);
  if (!*Entry)
    return fail(Entry->takeError());
  if (O.perfSupport)
    if (Error E = cli::writePerfSupportFiles(Recorder->objects(), TT))
      return fail(std::move(E));
  if (!O.debugScript.empty()) // the slab's addresses (-slab-address fixes them)
    if (Error E = cli::writeDebugScript(O.debugScript, Recorder->objects()))
      return fail(std::move(E));
  if (O.showAddrs)
    std::fputs(formatAddresses(Recorder->objects()).c_str(), stdout);
  if (O.showRelocated)
    for (auto &Obj : Recorder->objects())
      std::fputs(formatRelocatedContents(Obj).c_str(), stdout);
  // As llvm-jitlink: rules see what the entry lookup linked.
  if (!O.checkFiles.empty() &&
      !runCheckFiles(
          O.checkFiles, O.checkName,
          check::LinkInfoCheckEnv(*Recorder, S.triple().arch, [&S](std::string_view N) { return S.addressOf(N); })))
    return fail(makeError("some checks failed"));
  if (O.showTimes)
    std::fputs(driver::formatTimings(LoadMs, LinkMs, Total.ms()).c_str(), stdout);
  cli::exitWithoutTeardown(0);
}

} // namespace

int main(int Argc, char **Argv) { return run(Argc, Argv); }
