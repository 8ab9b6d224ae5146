#include "cli/repro_cli.h"

#include "cli/execute.h"
#include "cli/inputs.h"
#include "cli/self.h"
#include "driver/settings.h"
#include "repro/export_test.h"
#include "repro/reduce.h"
#include "target/target.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <regex>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace linklab::cli {

namespace fs = std::filesystem;
using namespace repro;

namespace {

struct ChildResult {
  int status = 0; // exit status, or 128 + signal
  std::string out, err;
};

Expected<std::string> readText(const std::string &Path) {
  auto B = SharedBytes::readFile(Path);
  if (!B)
    return B.takeError();
  return std::string(B->data(), B->size());
}

Error writeText(const fs::path &Path, std::string_view Text) {
  std::error_code EC;
  fs::create_directories(Path.parent_path(), EC);
  std::ofstream F(Path, std::ios::binary);
  if (!F.write(Text.data(), std::streamsize(Text.size())))
    return makeError(Path.string() + ": cannot write");
  return Error::success();
}

// Runs Argv with stdout and stderr captured through files in Dir, and its
// stdin read from the file Stdin (empty: none).
Expected<ChildResult> runChild(const std::vector<std::string> &Argv, const fs::path &Dir,
                               const std::string &Stdin = "") {
  std::string Out = (Dir / ".stdout").string(), Err = (Dir / ".stderr").string();
  posix_spawn_file_actions_t FA;
  posix_spawn_file_actions_init(&FA);
  posix_spawn_file_actions_addopen(&FA, 0, Stdin.empty() ? "/dev/null" : Stdin.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&FA, 1, Out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&FA, 2, Err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char *> Args;
  for (auto &A : Argv)
    Args.push_back(const_cast<char *>(A.c_str()));
  Args.push_back(nullptr);
  pid_t Pid;
  int RC = posix_spawnp(&Pid, Args[0], &FA, nullptr, Args.data(), environ);
  posix_spawn_file_actions_destroy(&FA);
  if (RC)
    return makeError(formatv("cannot start %s: %s", Argv[0].c_str(), strerror(RC)));
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  ChildResult R;
  R.status = WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status);
  for (auto [Path, Text] : {std::pair{&Out, &R.out}, {&Err, &R.err}})
    if (auto T = readText(*Path))
      *Text = std::move(*T);
  return R;
}

bool onPath(const std::string &Tool) {
  const char *P = getenv("PATH");
  std::string Path = P ? P : "";
  for (size_t Start = 0; Start <= Path.size();) {
    size_t End = Path.find(':', Start);
    std::string Dir = Path.substr(Start, End == std::string::npos ? std::string::npos : End - Start);
    if (!Dir.empty() && access((Dir + "/" + Tool).c_str(), X_OK) == 0)
      return true;
    if (End == std::string::npos)
      break;
    Start = End + 1;
  }
  return false;
}

// This command's standard input when a file or a pipe gives it (a terminal
// or /dev/null gives nothing): the session's, which its run reads.
std::string readOwnStdin() {
  struct stat St;
  if (isatty(0) || fstat(0, &St) != 0 || !(S_ISREG(St.st_mode) || S_ISFIFO(St.st_mode) || S_ISSOCK(St.st_mode)))
    return "";
  std::string In;
  char Buf[1 << 16];
  for (ssize_t N; (N = ::read(0, Buf, sizeof Buf)) != 0;) {
    if (N < 0 && errno != EINTR)
      break;
    if (N > 0)
      In.append(Buf, size_t(N));
  }
  return In;
}

// The options a case carries as they are, each as (case field, option
// field): caseFromOptions reads them, caseOptions gives them back.
template <typename Fn> void forEachCarriedOption(Fn F) {
  F(&ReproCase::triple, &driver::Options::triple);
  F(&ReproCase::entry, &driver::Options::entry);
  F(&ReproCase::absolutes, &driver::Options::absolutes);
  F(&ReproCase::noExec, &driver::Options::noExec);
  F(&ReproCase::phonyExternals, &driver::Options::phonyExternals);
}

Expected<ReproCase> caseFromOptions(const driver::Options &O) {
  auto Inputs = readInputs(O);
  if (!Inputs)
    return Inputs.takeError();
  ReproCase C;
  for (const Input &I : *Inputs) {
    auto In = readInput(I.name, I.bytes.span(), I.kind == ObjectKind::Harness);
    if (!In)
      return In.takeError();
    C.inputs.push_back(std::move(*In));
  }
  forEachCarriedOption([&](auto CaseField, auto OptionField) { C.*CaseField = O.*OptionField; });
  C.args = O.args;
  C.runtime = O.noProcessSyms ? "none" : O.runtime;
  // argv[0] explicit, as both linkers then pass the same argv.
  if (!C.noExec && C.args.empty() && !C.inputs.empty())
    C.args.push_back(baseName(C.inputs.front().name));
  return C;
}

// The options that link or run C as runCase does, its inputs read from
// Dir (empty: from where their names say).
driver::Options caseOptions(const ReproCase &C, const driver::Options &O, const fs::path &Dir = {}) {
  driver::Options R;
  for (auto &In : C.inputs)
    (In.harness ? R.harnesses : R.inputs).push_back(Dir.empty() ? In.name : (Dir / baseName(In.name)).string());
  forEachCarriedOption([&](auto CaseField, auto OptionField) { R.*OptionField = C.*CaseField; });
  R.runtime = C.runtime;
  if (R.harnesses.empty())
    R.args = C.args;
  R.maxInstructions = O.maxInstructions, R.timeoutMs = O.timeoutMs, R.maxMemory = O.maxMemory;
  R.oopExecutor = O.oopExecutor, R.oopExecutorConnect = O.oopExecutorConnect;
  return R;
}

enum class Tool { Linklab, LLVMJITLink };

// Writes C's inputs to Dir under their base names and links (or runs) them
// as O says; Extra options go before the inputs.
Expected<ChildResult> runCase(const ReproCase &C, const driver::Options &O, const fs::path &Dir, Tool T,
                              const std::vector<std::string> &Extra = {}) {
  std::error_code EC;
  fs::remove_all(Dir, EC);
  fs::create_directories(Dir, EC);
  std::vector<std::string> Argv{T == Tool::Linklab ? selfPath() : "llvm-jitlink-22"};
  if (C.noExec) {
    Argv.push_back("-noexec");
    for (auto [Name, V] : {std::pair{"slab-address", &O.slabAddress},
                           {"slab-page-size", &O.slabPageSize},
                           {"slab-allocate", &O.slabAllocate}})
      if (!V->empty())
        Argv.push_back(std::string("-") + Name + "=" + *V);
    if (C.runtime == "none") // both linkers' spelling
      Argv.push_back("-no-process-syms");
  }
  if (!C.entry.empty())
    Argv.push_back("-entry=" + C.entry);
  for (auto &A : C.absolutes)
    Argv.push_back("-abs=" + A);
  if (C.phonyExternals)
    Argv.push_back("-phony-externals");
  if (!C.triple.empty())
    Argv.push_back("-triple=" + C.triple);
  if (T == Tool::Linklab && !C.noExec) {
    for (auto [Name, V] : {std::pair{"max-instructions", &O.maxInstructions},
                           {"timeout-ms", &O.timeoutMs},
                           {"max-memory", &O.maxMemory},
                           {"oop-executor", &O.oopExecutor},
                           {"oop-executor-connect", &O.oopExecutorConnect}})
      if (!V->empty())
        Argv.push_back(std::string("-") + Name + "=" + *V);
    if (C.runtime != "default")
      Argv.push_back("-runtime=" + C.runtime);
  }
  Argv.insert(Argv.end(), Extra.begin(), Extra.end());
  std::vector<std::string> Harnesses;
  for (auto &In : C.inputs) {
    std::string Path = (Dir / baseName(In.name)).string();
    SharedBytes B = inputBytes(In);
    if (Error E = writeText(Path, {B.data(), B.size()}))
      return E;
    (In.harness ? Harnesses : Argv).push_back(Path);
  }
  if (!Harnesses.empty()) {
    Argv.push_back("-harness");
    Argv.insert(Argv.end(), Harnesses.begin(), Harnesses.end());
  } else if (!C.noExec && !C.args.empty()) {
    Argv.push_back("-args");
    Argv.insert(Argv.end(), C.args.begin(), C.args.end());
  }
  std::string Stdin; // the session's stdin, fed to every run of the case
  if (!C.noExec && !C.stdin_.empty()) {
    Stdin = (Dir / ".stdin").string();
    if (Error E = writeText(Stdin, C.stdin_))
      return E;
  }
  auto R = runChild(Argv, Dir, Stdin);
  if (!R)
    return R.takeError();
  // Messages name the inputs by base name, as the exported test's FileCheck
  // patterns expect.
  for (std::string *S : {&R->out, &R->err})
    for (size_t P; (P = S->find(Dir.string() + "/")) != std::string::npos;)
      S->erase(P, Dir.string().size() + 1);
  return R;
}

// The first "linklab error: " message, if the child printed one.
std::optional<std::string> linkError(const ChildResult &R, const char *Prefix = "linklab error: ") {
  size_t P = R.err.find(Prefix);
  if (P == std::string::npos)
    return std::nullopt;
  P += strlen(Prefix);
  return R.err.substr(P, R.err.find('\n', P) - P);
}

// A -noexec link's outcome: its error, if it failed.
Outcome linkOutcome(const ChildResult &R) {
  Outcome O;
  if (auto E = linkError(R)) {
    O.linkError = true;
    O.error = *E;
  }
  return O;
}

// A run's outcome, as the run recorded it: the link's error; a run a signal
// ended (a fault's, or one the program raised), its report and output; a
// run that exited, its status and output; else a limit ended the run, and
// the command failed with the report as its error.
Outcome runOutcome(const RunRecord &R) {
  Outcome O;
  if (R.outcome.error) {
    O.linkError = true;
    O.error = *R.outcome.error;
  } else if (R.signal) {
    O.signal = R.signal;
    O.report = R.report;
    O.output = R.out;
  } else if (R.outcome.exitCode) {
    O.exitCode = R.status;
    O.output = R.out;
  } else {
    O.linkError = true;
    O.error = R.report;
  }
  return O;
}

// Rebuilds Obj from Text with Tool (llvm-mc-22 with Flags, or yaml2obj-22);
// "" when the result's graph equals the original's, else what differs.
std::string rebuildsSame(const ElfObject &Obj, const std::string &Text, const std::string &Tool,
                         const std::string &Flags, const fs::path &Dir) {
  if (!onPath(Tool))
    return Tool + " is not installed";
  std::error_code EC;
  fs::create_directories(Dir, EC);
  fs::path S = Dir / "verify.txt", Obj2 = Dir / "verify.o";
  if (Error E = writeText(S, Text))
    return E.message();
  std::vector<std::string> Argv{Tool};
  for (size_t Start = 0; Start < Flags.size();) {
    size_t End = Flags.find(' ', Start);
    Argv.push_back(Flags.substr(Start, End == std::string::npos ? std::string::npos : End - Start));
    Start = End == std::string::npos ? Flags.size() : End + 1;
  }
  Argv.insert(Argv.end(), {"-o", Obj2.string(), S.string()});
  auto R = runChild(Argv, Dir);
  if (!R)
    return R.takeError().message();
  if (R->status)
    return Tool + ": " + R->err.substr(0, R->err.find('\n'));
  auto Re = readText(Obj2.string());
  if (!Re)
    return Re.takeError().message();
  // The symbol, string and relocation tables are graph sections too, whose
  // sizes depend on how a writer lays its tables out (LLVM shares string
  // suffixes), not on what links: their blocks are left out.
  auto dump = [&](const std::vector<char> &Bytes) -> std::string {
    auto G = createLinkGraph(Obj.name, std::make_shared<std::vector<char>>(Bytes));
    if (!G)
      return "error: " + G.takeError().message();
    std::string D = (*G)->dump(), Out;
    bool Table = false;
    for (size_t Start = 0; Start < D.size();) {
      size_t End = D.find('\n', Start);
      std::string Line = D.substr(Start, End - Start + 1);
      Start = End == std::string::npos ? D.size() : End + 1;
      if (Line.starts_with("section "))
        Table = Line.starts_with("section .symtab:") || Line.starts_with("section .strtab:") ||
                Line.starts_with("section .shstrtab:") || Line.starts_with("section .rela");
      if (!Table)
        Out += Line;
    }
    return Out;
  };
  if (dump(writeElfObject(Obj)) != dump(std::vector<char>(Re->begin(), Re->end())))
    return "the rebuilt object's graph differs";
  return "";
}

// Exports C (whose link or run had the outcome Out, the command exiting
// with Status and the program writing Output) to Dir; llvm-jitlink-22 is
// asked to run the same case, and its check pass too: where it does not
// agree the test says so (REQUIRES-LINKLAB-ONLY) rather than fail its
// second pass.
Error writeExport(const ReproCase &C, const Outcome &Out, int Status, const std::string &Output,
                  const driver::Options &O, const fs::path &Scratch, const fs::path &Dir, bool CompareOutput = true) {
  ExportOptions EO;
  EO.compareOutput = CompareOutput;
  EO.name = fs::path(Dir).filename().string();
  if (EO.name.empty() || EO.name == "." || EO.name == "..")
    EO.name = "repro";
  EO.marks = O.exportChecks;
  EO.acceptAssembly = [&](const ElfObject &Obj, const Assembly &A) {
    return rebuildsSame(withAssemblyNames(Obj, A), A.text, "llvm-mc-22", A.mcFlags + " -filetype=obj", Scratch / "mc")
        .empty();
  };
  EO.checkYaml = [&](const ElfObject &Obj, const std::string &Yaml) {
    return rebuildsSame(Obj, Yaml, "yaml2obj-22", "", Scratch / "yaml");
  };
  auto T = exportTest(C, Out, EO);
  if (!T)
    return T.takeError();

  Triple TT = C.triple.empty() ? Triple() : Triple::parse(C.triple);
  if (C.triple.empty())
    for (auto &In : C.inputs)
      if (!In.archive) {
        SharedBytes B = inputBytes(In);
        if (auto X = tripleOfObject(In.name, B.span()))
          TT = *X;
        break;
      }
  std::string Why;
  if (!onPath("llvm-jitlink-22"))
    Why = "llvm-jitlink-22 was not found when this test was exported";
  else if (!C.noExec && TT.arch != Arch::X86_64)
    Why = "llvm-jitlink-22 runs only x86-64 programs on this host";
  else if (C.runtime == "none" && !C.noExec)
    Why = "-runtime=none is linklab's own option";
  else if (Out.signal)
    Why = SignalLinklabOnly;
  else {
    auto J = runCase(C, O, Scratch / "jitlink", Tool::LLVMJITLink);
    if (!J)
      return J.takeError();
    if (Out.linkError) {
      std::string First = Out.error.substr(0, Out.error.find('\n'));
      if (!J->status || J->err.find("error: " + First) == std::string::npos)
        Why = "llvm-jitlink-22 reports this differently: " +
              (J->status ? J->err.substr(0, J->err.find('\n')) : std::string("it links without error"));
    } else if (J->status != Status || J->out != Output) // output that differs: behaviour that may differ
      Why = formatv("llvm-jitlink-22 gives exit status %d and %zu bytes of output (linklab: %d, %zu bytes)", J->status,
                    J->out.size(), Status, Output.size());
    if (Why.empty() && T->checks) {
      // The generated rules, under llvm-jitlink's own checker.
      fs::path CheckFile = Scratch / "checks.s";
      if (Error E = writeText(CheckFile, T->files.front().second))
        return E;
      ReproCase NoExec = C;
      NoExec.noExec = true;
      NoExec.phonyExternals = C.phonyExternals || !C.noExec;
      driver::Options Slab = O;
      Slab.slabAddress = "0x10000", Slab.slabPageSize = "4096", Slab.slabAllocate = "64Mb";
      auto K = runCase(NoExec, Slab, Scratch / "jitlink-check", Tool::LLVMJITLink, {"-check=" + CheckFile.string()});
      if (!K)
        return K.takeError();
      if (K->status)
        Why = "llvm-jitlink-22 does not pass the generated checks: " + K->err.substr(0, K->err.find('\n'));
    }
  }
  if (!Why.empty()) {
    EO.linklabOnly = Why;
    T = exportTest(C, Out, EO);
    if (!T)
      return T.takeError();
  }
  for (auto &[Path, Text] : T->files)
    if (Error E = writeText(Dir / Path, Text))
      return E;
  std::fprintf(stderr, "export: wrote %s (%u jitlink-check rules%s)\n", (Dir / T->testFile).c_str(), T->checks,
               Why.empty() ? "; runs under both linkers" : "; linklab only");
  for (auto &N : T->notes)
    std::fprintf(stderr, "export: note: %s\n", N.c_str());
  return Error::success();
}

struct Scratch {
  fs::path dir;
  Scratch() {
    char Tmpl[] = "/tmp/linklab-repro.XXXXXX";
    dir = mkdtemp(Tmpl) ? fs::path(Tmpl) : fs::temp_directory_path() / "linklab-repro";
  }
  ~Scratch() {
    std::error_code EC;
    fs::remove_all(dir, EC);
  }
};

} // namespace

int exportTestCommand(const driver::Options &O, const std::function<void()> &Started) {
  auto C = caseFromOptions(O);
  if (!C)
    return fail(C.takeError());
  if (C->noExec) {
    Scratch S;
    auto R = runCase(*C, O, S.dir / "run", Tool::Linklab);
    if (!R)
      return fail(R.takeError());
    // The session's own result, as a plain link would show it.
    std::fputs(R->out.c_str(), stdout);
    std::fputs(R->err.c_str(), stderr);
    if (Error E = writeExport(*C, linkOutcome(*R), R->status, R->out, O, S.dir, O.exportTest))
      return fail(E);
    return R->status;
  }
  // A run: the session runs here, as a plain run would, and its record
  // (the program's output, what it read, how it ended) is the outcome.
  RunRecord Rec;
  int Status = runInExecutor(caseOptions(*C, O), Started, &Rec);
  if (!Rec.ended) // it did not get as far as a link: nothing to export
    return Status;
  C->stdin_ = Rec.in;
  Scratch S;
  if (Error E = writeExport(*C, runOutcome(Rec), Rec.status, Rec.out, O, S.dir, O.exportTest))
    return fail(E);
  return Status;
}

int reduceCommand(const driver::Options &O) {
  int Kinds = !O.reduceError.empty() + !O.reduceExit.empty() + !O.reduceOutput.empty();
  if (Kinds > 1)
    return fail(makeError("-reduce: give one of -reduce-error, -reduce-exit and -reduce-output"));
  auto Seconds = driver::parseNumber({"-reduce-time", O.reduceTime});
  if (!Seconds)
    return fail(Seconds.takeError());
  auto C = caseFromOptions(O);
  if (!C)
    return fail(C.takeError());
  if (!C->noExec)
    C->stdin_ = readOwnStdin();
  Scratch S;
  std::string ErrorText = O.reduceError, ExpectedOutput;
  long Exit = -1;
  if (!O.reduceExit.empty()) {
    auto N = driver::parseNumber({"-reduce-exit", O.reduceExit});
    if (!N)
      return fail(N.takeError());
    Exit = long(*N);
  }
  if (!O.reduceOutput.empty()) {
    auto T = readText(O.reduceOutput);
    if (!T)
      return fail(makeError("-reduce-output: " + T.takeError().message()));
    ExpectedOutput = *T;
  }
  // The session as given, timed: its failure is what every candidate must
  // keep, and its time bounds each candidate's run.
  auto Started = std::chrono::steady_clock::now();
  auto First = runCase(*C, O, S.dir / "first", Tool::Linklab);
  if (!First)
    return fail(First.takeError());
  auto FirstMs = uint64_t(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - Started).count());
  auto FirstError = linkError(*First);
  if (!Kinds) { // the failure is what the session does now
    if (FirstError)
      ErrorText = *FirstError;
    else if (First->status)
      Exit = First->status;
    else
      return fail(makeError("-reduce: the session links and runs with exit status 0; say what fails with "
                            "-reduce-output=FILE (expected output), -reduce-exit or -reduce-error"));
  }
  // An error substring holds only as the whole error it is part of: the
  // same message, naming the same symbols and objects (a candidate that
  // fails on another missing symbol has lost the failure).
  std::string WholeError = FirstError && !ErrorText.empty() && FirstError->find(ErrorText) != std::string::npos
                               ? *FirstError
                               : std::string();
  std::fprintf(stderr, "reduce: keeping %s\n",
               !WholeError.empty()  ? ("the error '" + WholeError + "'").c_str()
               : !ErrorText.empty() ? ("an error containing '" + ErrorText + "'").c_str()
               : Exit >= 0          ? formatv("exit status %ld", Exit).c_str()
                                    : "output that differs from the expected");
  // Each candidate runs under twice the original's time plus a second (or
  // -timeout-ms if less): one that hangs costs that, not the default minute.
  driver::Options Cand = O;
  if (!C->noExec) {
    uint64_t Bound = 2 * FirstMs + 1000;
    if (!O.timeoutMs.empty()) {
      auto Given = driver::parseNumber({"-timeout-ms", O.timeoutMs});
      if (!Given) // the session's own run said so
        return fail(Given.takeError());
      if (*Given)
        Bound = std::min<uint64_t>(Bound, *Given);
    }
    Cand.timeoutMs = std::to_string(Bound);
  }
  std::fprintf(stderr, "reduce: the session took %llu ms; each candidate may run for %s ms\n",
               (unsigned long long)FirstMs, Cand.timeoutMs.empty() ? "(no run)" : Cand.timeoutMs.c_str());
  // A fault's pc (and an address it symbolizes) moves with the layout as
  // objects and sections go: the same fault is at the same symbol and
  // offset, which the report names beside the value.
  auto Stable = [](const std::string &E) {
    static const std::regex Value("(at pc|address) 0x[0-9a-f]+ \\(");
    return std::regex_replace(E, Value, "$1 * (");
  };
  unsigned N = 0;
  auto Fails = [&](const ReproCase &Cand2) {
    auto R = runCase(Cand2, Cand, S.dir / formatv("t%u", N++ % 2), Tool::Linklab);
    if (!R)
      return false;
    auto E = linkError(*R);
    if (!WholeError.empty())
      return E && Stable(*E) == Stable(WholeError);
    if (!ErrorText.empty())
      return E && E->find(ErrorText) != std::string::npos;
    if (Exit >= 0)
      return R->status == Exit;
    return !E && R->out != ExpectedOutput; // output mismatch: it ran, and printed something else
  };
  ReduceOptions RO;
  RO.seconds = double(*Seconds);
  RO.progress = [](const std::string &L) { std::fprintf(stderr, "%s\n", L.c_str()); };
  auto R = reduce(std::move(*C), Fails, RO);
  if (!R)
    return fail(R.takeError());
  std::printf("reduce: %zu removals in %u tests%s:\n", R->removed.size(), R->tests,
              R->timedOut ? " (time limit reached)" : "");
  for (auto &W : R->removed)
    std::printf("  removed %s\n", W.c_str());
  fs::path Out = O.reduceOut;
  for (auto &In : R->reduced.inputs) {
    SharedBytes B = inputBytes(In);
    if (auto E = writeText(Out / baseName(In.name), {B.data(), B.size()}))
      return fail(E);
    std::printf("reduce: kept %s\n", (Out / baseName(In.name)).c_str());
  }
  // The reduced case once more, from the files kept: its outcome is the
  // exported test's.
  Outcome Final;
  int Status;
  std::string Output;
  if (R->reduced.noExec) {
    auto Last = runCase(R->reduced, O, S.dir / "last", Tool::Linklab);
    if (!Last)
      return fail(Last.takeError());
    Final = linkOutcome(*Last), Status = Last->status, Output = Last->out;
  } else {
    RunRecord Rec;
    Rec.input = R->reduced.stdin_;
    Rec.echo = false;
    // -save-bundle and -share-url: the reduced case's, with this run's outcome.
    driver::Options Last = caseOptions(R->reduced, O, Out);
    Last.saveBundle = O.saveBundle, Last.shareUrl = O.shareUrl;
    Status = runInExecutor(
        Last, [] {}, &Rec);
    if (!Rec.ended)
      return Status;
    Final = runOutcome(Rec), Output = Rec.out;
  }
  if (Final.linkError || Final.signal) {
    // Named by base name, as the candidates' failures were (runCase).
    std::string Text = Final.signal ? Final.report : Final.error;
    for (size_t P; (P = Text.find((Out / "").string())) != std::string::npos;)
      Text.erase(P, (Out / "").string().size());
    std::printf("reduce: the reduced case fails with: %s\n", Text.c_str());
  } else {
    std::printf("reduce: the reduced case exits with status %d\n", Status);
  }
  // Kept for its exit status, the reduced program's output is whatever its
  // remaining data makes it: the test does not compare it.
  if (auto E = writeExport(R->reduced, Final, Status, Output, O, S.dir, Out / "test", /*CompareOutput=*/Exit < 0))
    return fail(E);
  return 0;
}

} // namespace linklab::cli
