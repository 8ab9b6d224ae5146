#include "cli/execute.h"
#include "cli/inputs.h"

#include "cli/callconv_cli.h"
#include "cli/debug_cli.h"
#include "cli/self.h"
#include "cli/version.h"
#include "driver/settings.h"
#include "repro/bundle.h"

#include "object/archive.h"
#include "program/program.h"
#include "protocol/native_transport.h"
#include "target/target.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace linklab::cli {

using namespace executor;

namespace {

// The executor to start: the one installed beside this binary (an install's
// bin/, or the build tree's emulator/ next to core/), else $LINKLAB_EXECUTOR,
// else linklab-executor on PATH.
Expected<std::string> findExecutor() {
  std::string Self = selfPath(), Dir = Self.substr(0, Self.rfind('/') + 1);
  std::vector<std::string> Tried;
  auto Runnable = [&](const std::string &P) {
    Tried.push_back(P);
    return access(P.c_str(), X_OK) == 0;
  };
  for (const std::string &P : {Dir + "linklab-executor", Dir + "../emulator/linklab-executor"})
    if (Runnable(P))
      return P;
  if (const char *Env = std::getenv("LINKLAB_EXECUTOR"); Env && *Env) {
    if (Runnable(Env))
      return std::string(Env);
    return makeError(formatv("LINKLAB_EXECUTOR names '%s', which is not an executable file", Env));
  }
  const char *Path = std::getenv("PATH");
  for (std::string_view Rest = Path ? Path : ""; !Rest.empty();) {
    size_t Colon = Rest.find(':');
    std::string D(Rest.substr(0, Colon));
    Rest = Colon == std::string_view::npos ? std::string_view() : Rest.substr(Colon + 1);
    if (!D.empty() && Runnable(D + "/linklab-executor"))
      return D + "/linklab-executor";
  }
  return makeError(formatv("cannot find linklab-executor (looked at %s, %s, then LINKLAB_EXECUTOR and PATH): build "
                           "it (cmake --build build --target linklab-executor), install it beside linklab, or set "
                           "LINKLAB_EXECUTOR to its path",
                           Tried[0].c_str(), Tried[1].c_str()));
}

} // namespace

namespace {

Error writeFile(const std::string &Path, const std::string &Bytes) {
  FILE *F = std::fopen(Path.c_str(), "wb");
  if (!F)
    return makeError(formatv("-perf-support: cannot write %s: %s", Path.c_str(), std::strerror(errno)));
  bool Ok = std::fwrite(Bytes.data(), 1, Bytes.size(), F) == Bytes.size();
  if (std::fclose(F) != 0 || !Ok)
    return makeError(formatv("-perf-support: cannot write %s", Path.c_str()));
  return Error::success();
}

// The ELF e_machine of TT's architecture (a jitdump names its code's ISA so).
uint32_t elfMachine(const Triple &TT) {
  for (const TargetInfo *T : allTargets())
    if (T->format.format == ObjectFormat::ELF && T->arch.arch == TT.arch)
      return T->machine;
  return 0; // EM_NONE
}

// $JITDUMPDIR (else $HOME, else .)/.debug/jit/llvm-IR-jit-YYYYMMDD-XXXXXX/, as
// llvm-jitlink lays it out (and perf inject --jit finds it).
Expected<std::string> makeJITDumpDir() {
  const char *Base = std::getenv("JITDUMPDIR");
  if (!Base || !*Base)
    Base = std::getenv("HOME");
  std::string Dir = Base && *Base ? Base : ".";
  for (const char *Part : {"/.debug", "/jit"}) {
    Dir += Part;
    if (mkdir(Dir.c_str(), 0755) != 0 && errno != EEXIST)
      return makeError(formatv("-perf-support: cannot create %s: %s", Dir.c_str(), std::strerror(errno)));
  }
  std::time_t Now = std::time(nullptr);
  char Date[16];
  std::strftime(Date, sizeof Date, "%Y%m%d", std::localtime(&Now));
  std::string Template = Dir + "/llvm-IR-jit-" + Date + "-XXXXXX";
  if (!mkdtemp(Template.data()))
    return makeError(formatv("-perf-support: cannot create a directory in %s: %s", Dir.c_str(), std::strerror(errno)));
  return Template;
}

} // namespace

Error writePerfSupportFiles(const std::vector<ObjectLinkInfo> &Objects, const Triple &TT) {
  if (Error E = writeFile(formatv("/tmp/perf-%d.map", int(getpid())), formatPerfMap(Objects)))
    return E;
  auto Dir = makeJITDumpDir();
  if (!Dir)
    return Dir.takeError();
  timespec Now{};
  clock_gettime(CLOCK_MONOTONIC, &Now);
  uint64_t Stamp = uint64_t(Now.tv_sec) * 1000000000u + uint64_t(Now.tv_nsec);
  return writeFile(formatv("%s/jit-%d.dump", Dir->c_str(), int(getpid())),
                   formatJITDump(Objects, elfMachine(TT), uint32_t(getpid()), Stamp));
}

void exitWithoutTeardown(int Code) {
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(Code);
}

namespace {

// A bundle records what the page can replay: a run of main with the C
// runtime's default or none, arguments, limits and stdin.
Error checkBundleable(const driver::Options &O) {
  if (O.noExec)
    return makeError("-save-bundle/-share-url record a run; drop -noexec");
  for (auto [What, Given] : {std::pair{"-env", !O.env.empty()},
                             {"-cc", !O.conventions.empty()},
                             {"-call", !O.callSymbol.empty()},
                             {"-file", !O.files.empty()},
                             {"-oop-executor-connect", !O.oopExecutorConnect.empty()}})
    if (Given)
      return makeError(formatv("-save-bundle/-share-url: a bundle cannot record %s", What));
  return Error::success();
}

std::string baseName(const std::string &Path) { return Path.substr(Path.rfind('/') + 1); }

// Writes the bundle file and/or prints the share link of the run.
Error writeBundle(const driver::Options &O, const std::vector<Input> &Inputs, const Triple &TT, const RunRecord &Rec,
                  repro::BundleOutcome Outcome) {
  repro::Bundle B;
  B.linklabVersion = linklabVersion();
  B.arch = archName(TT.arch);
  for (const Input &I : Inputs)
    B.objects.push_back({baseName(I.name), I.kind == ObjectKind::Harness, std::string(I.bytes.data(), I.bytes.size())});
  B.entry = O.entry;
  B.phonyExternals = O.phonyExternals;
  B.runtime = !(O.noProcessSyms || O.runtime == "none");
  B.absolutes = O.absolutes;
  std::vector<std::string> Argv = O.args;
  if (Argv.empty())
    Argv.push_back(O.inputs.empty() ? O.harnesses.front() : O.inputs.front());
  B.argv0 = Argv.front();
  B.args.assign(Argv.begin() + 1, Argv.end());
  B.instructions = O.maxInstructions;
  B.wallMillis = O.timeoutMs;
  if (!O.maxMemory.empty()) { // the page's field is in MiB
    auto N = driver::parseSize({"-max-memory", O.maxMemory});
    if (!N)
      return N.takeError();
    if (*N % (1 << 20))
      return makeError(formatv("-save-bundle: -max-memory=%s is not a whole number of MiB, as a bundle records it",
                               O.maxMemory.c_str()));
    B.memoryMB = std::to_string(*N >> 20);
  }
  B.stdin_ = Rec.in;
  // The bundle names each input by its base name, as its messages then do.
  auto baseNames = [&](std::string &Text) {
    for (const Input &I : Inputs)
      for (size_t P; I.name != baseName(I.name) && (P = Text.find(I.name)) != std::string::npos;)
        Text.replace(P, I.name.size(), baseName(I.name));
  };
  if (Outcome.error)
    baseNames(*Outcome.error);
  if (Outcome.fault)
    baseNames(Outcome.fault->symbol);
  B.outcome = std::move(Outcome);
  auto Json = repro::bundleJson(B);
  if (!Json)
    return Json.takeError();
  if (!O.saveBundle.empty()) {
    FILE *F = std::fopen(O.saveBundle.c_str(), "wb");
    bool Ok = F && std::fwrite(Json->data(), 1, Json->size(), F) == Json->size();
    if (!F || std::fclose(F) != 0 || !Ok)
      return makeError(formatv("-save-bundle: cannot write %s", O.saveBundle.c_str()));
  }
  if (!O.shareUrl.empty()) {
    std::string Frag = repro::shareFragment(*Json);
    if (Frag.size() > repro::MaxShareFragment)
      return makeError(formatv("-share-url: this session is too large for a link (%zu KiB; links hold up to %zu KiB): "
                               "use -save-bundle",
                               Frag.size() >> 10, repro::MaxShareFragment >> 10));
    std::fprintf(stderr, "linklab: share link: %s%s\n", O.shareUrl.c_str(), Frag.c_str());
  }
  return Error::success();
}

// The prepared runtime image cache (program/runtime_image.h), for a plain
// run of objects: any option that adds to the link, reads its graphs or
// changes where it lies takes the usual path.
std::optional<exec::Program::ImageCache> imageCache(const driver::Options &O, const std::vector<Input> &Inputs,
                                                    bool Recording) {
  bool Plain = !O.noProcessSyms && O.harnesses.empty() && O.libraries.empty() && O.absolutes.empty() &&
               O.conventions.empty() && O.callSymbol.empty() && !O.phonyExternals && !O.allLoad &&
               O.sectCreates.empty() && O.weakLibraries.empty() && O.jitDylibs.empty() && O.showGraphs.empty() &&
               !O.showAddrs && !O.showRelocated && O.checkFiles.empty() && !O.perfSupport && O.debugScript.empty() &&
               O.gdb.empty() && !O.showInitEs && !O.showEntryEs && O.writeSymtab.empty() && !O.addSelfRelocations &&
               O.entry.empty() && O.oopExecutorConnect.empty() && !Recording &&
               std::none_of(Inputs.begin(), Inputs.end(), [](const Input &I) { return I.isArchive(); });
  auto Dir = Plain ? exec::runtimeCacheDir() : std::nullopt;
  if (!Dir)
    return std::nullopt;
  // This build: an image records its addresses and code. (The link's target
  // is stat'ed, not the link: valgrind reports the program's own path there.)
  char Self[4096];
  ssize_t N = readlink("/proc/self/exe", Self, sizeof Self - 1);
  struct stat St;
  if (N <= 0 || (Self[N] = 0, stat(Self, &St) != 0))
    return std::nullopt;
  return exec::Program::ImageCache{*Dir, formatv("%s %lld %lld.%09ld", linklabVersion(), (long long)St.st_size,
                                                 (long long)St.st_mtim.tv_sec, (long)St.st_mtim.tv_nsec)};
}

} // namespace

int runInExecutor(const driver::Options &O, const std::function<void()> &Started, RunRecord *Record) {
  auto L = driver::runLimits(O);
  if (!L)
    return fail(L.takeError());
  for (auto &E : O.env)
    if (E.find('=') == std::string::npos)
      return fail(makeError(formatv("option '-env': '%s' is not NAME=VALUE", E.c_str())));
  std::vector<executor::InputFile> Files;
  for (auto &F : O.files) { // read here: the executor opens no host file
    size_t Eq = F.find('=');
    if (Eq == std::string::npos || Eq == 0 || Eq + 1 == F.size())
      return fail(makeError(formatv("option '-file': '%s' is not NAME=PATH", F.c_str())));
    auto Bytes = SharedBytes::readFile(F.substr(Eq + 1));
    if (!Bytes)
      return fail(Bytes.takeError().withContext("option '-file'"));
    Files.push_back({F.substr(0, Eq), std::vector<uint8_t>(Bytes->begin(), Bytes->end())});
  }
  // -save-bundle and -share-url record the run as the playground records
  // one; a caller that goes on with the run (Record) gets the same record.
  RunRecord Own;
  RunRecord &Rec = Record ? *Record : Own;
  bool Bundle = !O.saveBundle.empty() || !O.shareUrl.empty(), Recording = Bundle || Record;
  bool Echo = !Record || Record->echo;
  // How the link or the run ended, printed as the command's error unless
  // the run is only recorded.
  auto ended = [Echo](Error E) {
    if (Echo)
      return fail(E);
    consumeError(std::move(E));
    return 1;
  };
  if (Bundle)
    if (Error E = checkBundleable(O))
      return fail(E);
  auto Inputs = readInputs(O);
  if (!Inputs)
    return fail(Inputs.takeError());
  auto TT = inputTriple(O, *Inputs);
  if (!TT)
    return fail(TT.takeError());
  if (Error E = checkRunnable(*TT)) // before asking for a C runtime it could not use
    return fail(std::move(E));
  auto Runtime = selectRuntime(O, *TT, /*Required=*/true);
  if (!Runtime)
    return fail(Runtime.takeError());
  // A link error ends the command; recorded, it is the run's outcome.
  auto linkFailed = [&](Error E) {
    if (Recording) {
      Rec.ended = true;
      Rec.outcome = {};
      Rec.outcome.error = E.message();
      Rec.status = 1; // fail's
    }
    if (Bundle)
      if (Error W = writeBundle(O, *Inputs, *TT, Rec, Rec.outcome))
        fail(W);
    return ended(std::move(E));
  };

  // -gdb: the socket is bound here (so its port is known before the run)
  // and served by the executor, which inherits it.
  int GdbFd = -1;
  std::string GdbAt;
  if (!O.gdb.empty()) {
    if (!O.oopExecutorConnect.empty())
      return fail(makeError("option '-gdb' needs an executor this command starts (not -oop-executor-connect)"));
    auto Fd = listenForGdb(O.gdb, GdbAt);
    if (!Fd)
      return fail(Fd.takeError());
    GdbFd = *Fd;
  }
  auto Spawn = [&]() -> Expected<std::unique_ptr<FdTransport>> {
    Expected<std::string> Path = O.oopExecutor.empty() ? findExecutor() : Expected<std::string>(O.oopExecutor);
    if (!Path)
      return Path.takeError();
    return spawnExecutor(*Path, GdbFd);
  };
  auto T = !O.oopExecutorConnect.empty() ? connectExecutor(O.oopExecutorConnect) : Spawn();
  Started();
  if (GdbFd >= 0)
    close(GdbFd);
  if (!T)
    return fail(T.takeError());
  if (O.gdb.empty())                            // (a program gdb holds is silent for as long as gdb holds it)
    (*T)->setSilenceLimit(silenceLimitFor(*L)); // a stopped or hung executor is killed, not waited for
  ExecutorClient C(**T);
  // Program output as it comes, interleaved as the program wrote it. Where
  // nobody reads it any more (`| head`), the program and this command end
  // as a native program would, by SIGPIPE.
  C.setOutputHandler([&Rec, Recording, Echo](Stream S, std::string_view Bytes) {
    if (Recording)
      (S == Stream::Stderr ? Rec.err : Rec.out).append(Bytes);
    if (!Echo)
      return;
    FILE *F = S == Stream::Stderr ? stderr : stdout;
    bool Written = std::fwrite(Bytes.data(), 1, Bytes.size(), F) == Bytes.size();
    if ((std::fflush(F) != 0 || !Written) && errno == EPIPE) {
      killSpawnedExecutor();
      std::signal(SIGPIPE, SIG_DFL);
      raise(SIGPIPE);
    }
  });
  // The program's stdin is ours: a blocking read, so a terminal works; but
  // not past the run's wall-time limit (plus a second), when the executor
  // has ended the run and waits for no input: an input that never comes
  // must not hold the command. (The reply is then end of input, which the
  // ended run ignores.) Held by gdb, a run has no deadline.
  std::optional<std::chrono::steady_clock::time_point> InputDeadline;
  size_t InputAt = 0; // how much of a given input the program has read
  C.setInputHandler([&Rec, Recording, &InputDeadline, &InputAt](uint32_t Max) {
    if (Rec.input) {
      size_t N = std::min<size_t>(Max, Rec.input->size() - InputAt);
      std::vector<uint8_t> Buf(Rec.input->begin() + ptrdiff_t(InputAt), Rec.input->begin() + ptrdiff_t(InputAt + N));
      InputAt += N;
      Rec.in.append(Buf.begin(), Buf.end());
      return Buf;
    }
    std::vector<uint8_t> Buf(std::min<uint32_t>(Max, 1 << 16));
    for (;;) {
      int Wait = -1;
      if (InputDeadline) {
        auto Left =
            std::chrono::duration_cast<std::chrono::milliseconds>(*InputDeadline - std::chrono::steady_clock::now());
        Wait = int(std::max<int64_t>(0, Left.count()));
      }
      pollfd P = {0, POLLIN, 0};
      int R = poll(&P, 1, Wait);
      if (R < 0 && errno == EINTR)
        continue;
      if (R == 0)
        return std::vector<uint8_t>();
      break;
    }
    ssize_t N;
    do
      N = ::read(0, Buf.data(), Buf.size());
    while (N < 0 && errno == EINTR);
    Buf.resize(N > 0 ? size_t(N) : 0);
    if (Recording)
      Rec.in.append(Buf.begin(), Buf.end());
    return Buf;
  });
  std::vector<PrefetchedGraphs::Input> Objects; // archives too: their members may need the on-demand archives
  for (const Input &I : *Inputs)
    Objects.push_back({I.name, I.bytes});
  auto Cache = imageCache(O, *Inputs, Recording);
  auto Made = exec::Program::createSync(C, *TT, *Runtime, Objects, Cache ? &*Cache : nullptr);
  if (!Made)
    return linkFailed(Made.takeError());
  auto Linked = driver::Link::program(std::move(*Made), printWarning);
  exec::Program *P = Linked->program();
  P->session().setKeepLinkedGraphs(true); // the command ends without freeing them
  // A jitdump carries the code linked from here on; -debug-script's image, the call-frame information.
  P->linkInfo().setRecordContents(O.perfSupport || !O.debugScript.empty());
  P->linkInfo().recordWhenAsked(P->session()); // symbolizing a fault is what asks
  bool HasProcess = *Runtime != nullptr;
  if (O.showInitEs || O.showEntryEs)
    P->session().recordProcessLookups();
  if (Error E = Linked->addInputs(*Inputs, O, SharedBytes::readFile))
    return linkFailed(std::move(E));
  if (Error E = addNativeOptions(O, P->session()))
    return linkFailed(std::move(E));
  if (O.showInitEs)
    std::fputs(P->session().dumpSymbolTables(HasProcess).c_str(), stdout);
  if (auto Done = applyConventions(O, Linked->conventions().table().get(), *P, *L)) { // -call
    consumeError(C.hangupSync()); // best effort: the run's result is already known
    return *Done;
  }
  std::vector<std::string> Args = O.args;
  if (Args.empty()) // argv[0] as a shell would give it
    Args.push_back(O.inputs.empty() ? O.harnesses.front() : O.inputs.front());
  P->setEnvironment(O.env);
  if (!O.gdb.empty() || !O.debugScript.empty() || O.showEntryEs)
    P->setBeforeMainRun([&O, &GdbAt, HasProcess, Prog = P] {
      if (O.showEntryEs) { // linked, not yet run: llvm-jitlink's point for it
        std::fputs(Prog->session().dumpSymbolTables(HasProcess).c_str(), stdout);
        std::fflush(stdout);
      }
      if (!O.debugScript.empty())
        if (Error E = writeDebugScript(O.debugScript, Prog->linkInfo().objects()))
          exitWithoutTeardown(fail(E)); // the executor ends at the end of its input
      if (!O.gdb.empty())
        std::fprintf(stderr, "linklab: the program is stopped at its entry; attach with:\n  %s\n",
                     gdbCommand(GdbAt, O.debugScript).c_str());
    });
  P->setInputFiles(std::move(Files));
  uint64_t WallMillis = L->wall();
  if (O.gdb.empty())
    InputDeadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(WallMillis + 1000);
  auto R = P->runMainSync(driver::entrySymbol(O.entry, *TT), std::move(Args), *L);
  if (O.perfSupport) // what was linked, whether or not the run went well
    if (Error E = writePerfSupportFiles(P->linkInfo().objects(), *TT)) {
      consumeError(C.hangupSync());
      return fail(std::move(E));
    }
  if (!R)
    return linkFailed(R.takeError());
  auto Code = C.exitCode(*R);
  if (Recording) {
    Rec.ended = true;
    repro::BundleOutcome &Out = Rec.outcome;
    Out = {};
    Out.status = runStatusName(R->runStatus());
    if (Code)
      Out.exitCode = *Code;
    Out.stdout_ = Rec.out, Out.stderr_ = Rec.err;
    if (R->runStatus() == RunStatus::Fault)
      Out.fault = {faultKindName(FaultKind(R->faultKind)), R->pc, R->address, P->symbolize(R->pc)};
    if (Bundle)
      if (Error E = writeBundle(O, *Inputs, *TT, Rec, Out)) {
        consumeError(C.hangupSync());
        return fail(E);
      }
  }
  consumeError(C.hangupSync()); // best effort: the run's result is already known
  (*T)->closeAndReap();         // no executor outlives the command, not even as a zombie
  int Status = int(Code ? *Code & 0xff : 0);
  if (!Code) { // a shell reports a process killed by signal N (abort, a fault) as status 128+N
    Error E = Code.takeError();
    Rec.report = E.message();
    Rec.signal = executor::ExecutorClient::terminatingSignal(*R);
    Status = ended(std::move(E));
    if (Rec.signal)
      Status = 128 + Rec.signal;
  }
  if (!Record)
    exitWithoutTeardown(Status);
  Rec.status = Status;
  return Status;
}

} // namespace linklab::cli
