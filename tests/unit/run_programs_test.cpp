// Real C programs (tests/inputs/run, tests/inputs/seed) compiled at test
// time for each architecture, linked and run by the `linklab` CLI in
// linklab-executor against the target's C runtime, and compared with the
// same sources compiled by clang-22 for this x86-64 host and run natively:
// stdout, stderr and the exit code must match.
#include "test_support.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>
#include <sys/wait.h>

using namespace linklab;

namespace {

const std::string Src = LINKLAB_SOURCE_DIR "/tests/inputs/";
const std::string Out = LINKLAB_BINARY_DIR "/tests/run/";
const std::string Linklab = LINKLAB_BINARY_DIR "/core/linklab";
// The runs share a prepared runtime image cache (program/runtime_image.h)
// of their own: a program's first run builds its image, a later one with
// the same runtime needs (the other optimisation level, often) runs from it.
const bool CacheSet = setenv("LINKLAB_CACHE", (Out + "runtime-images").c_str(), 1) == 0;

using test::ArchCase;
const ArchCase Arches[] = {
    {"x86_64", Arch::X86_64},
    {"aarch64", Arch::AArch64},
    {"riscv64", Arch::RISCV64},
};

struct Program {
  const char *name;
  std::vector<std::string> sources; // relative to tests/inputs
  std::vector<std::string> args;    // linklab options after the objects (e.g. -args ...)
  std::vector<std::string> argv;    // the native program's arguments (argv[1...])
  // Extra flags of the native build: -static where a static link's answer
  // differs from a dynamic one's (an IFUNC's address in a PIE is not unique).
  const char *nativeFlags = "";
};
void PrintTo(const Program &C, std::ostream *OS) { *OS << C.name; }
const Program Programs[] = {
    {"hello", {"run/hello.c"}, {}, {}},
    {"args", {"run/args.c"}, {"-args", "prog", "one", "two words", ""}, {"one", "two words", ""}},
    {"exit_codes", {"run/exit_codes.c"}, {"-args", "prog", "x", "y"}, {"x", "y"}},
    {"globals", {"run/globals.c"}, {}, {}},
    {"floats", {"run/floats.c"}, {}, {}},
    {"lists", {"run/lists.c"}, {}, {}},
    {"sort", {"run/sort.c"}, {}, {}},
    {"weak", {"run/weak.c", "run/weak_strong.c"}, {}, {}},
    {"ctors", {"run/ctors.c"}, {}, {}},
    {"ifunc", {"run/ifunc.c", "run/ifunc_use.c"}, {}, {}, "-static"},
    {"seed_hello_world", {"seed/hello-world.c"}, {}, {}},
    {"seed_print_args", {"seed/print-args.c", "seed/print-args-main.c"}, {"-args", "a", "b", "c"}, {"b", "c"}},
};

struct Result {
  int code = -1;
  std::string out, err;
};

std::string slurp(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

// One shell word, whatever S holds.
std::string quote(const std::string &S) {
  std::string Q = "'";
  for (char C : S)
    Q += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Q + "'";
}

Result runCommand(const std::string &Cmd, const std::string &Tag) {
  std::string O = Out + Tag + ".stdout", E = Out + Tag + ".stderr";
  int Status = std::system((Cmd + " >" + O + " 2>" + E).c_str());
  Result R;
  R.code = WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
  R.out = slurp(O);
  R.err = slurp(E);
  return R;
}

void compile(const std::string &Flags, const std::string &Source, const std::string &Obj, const char *Opt = "-O1") {
  std::string Cmd = "clang-22 -c " + std::string(Opt) + " " + Flags + " " + Src + Source + " -o " + Obj;
  ASSERT_EQ(std::system(Cmd.c_str()), 0) << Cmd;
}

class RunPrograms : public ::testing::TestWithParam<std::tuple<Program, ArchCase>> {};

TEST_P(RunPrograms, MatchesNative) {
  auto &[P, A] = GetParam();
  std::string Tag = std::string(P.name) + "-" + A.name;
  ASSERT_EQ(std::system(("mkdir -p " + Out).c_str()), 0);

  // Native reference: clang-22 for the host (glibc), argv[0] as linklab's.
  // Per architecture: tests of one program for several arches run in parallel.
  std::string NativeExe = Out + Tag + "-native",
              NativeCmd = "clang-22 -O1 " + std::string(P.nativeFlags) + " -o " + NativeExe;
  for (auto &S : P.sources)
    NativeCmd += " " + Src + S;
  ASSERT_EQ(std::system(NativeCmd.c_str()), 0) << NativeCmd;
  std::string Run = NativeExe;
  for (auto &Arg : P.argv)
    Run += " " + quote(Arg);
  // llvm-jitlink's -args list is the whole argv; the native run gets the
  // same argv[0] through exec -a.
  // Without -args, argv[0] is the first object's path.
  std::string Argv0 = P.args.empty() ? Out + Tag + "-0.o" : P.args[1];
  Result Native = runCommand("bash -c " + quote("exec -a " + Argv0 + " " + Run), Tag + "-native");

  std::string Cmd = Linklab;
  for (auto &S : P.sources) {
    std::string Obj = Out + Tag + "-" + std::to_string(&S - P.sources.data()) + ".o";
    compile(test::runtimeCFlags(A.arch), S, Obj);
    Cmd += " " + Obj;
  }
  for (auto &Arg : P.args)
    Cmd += " " + quote(Arg);
  Result Linked = runCommand(Cmd, Tag);

  EXPECT_EQ(Linked.code, Native.code) << Cmd << "\nstderr: " << Linked.err;
  EXPECT_EQ(Linked.out, Native.out) << Cmd;
  EXPECT_EQ(Linked.err, Native.err) << Cmd;
}

INSTANTIATE_TEST_SUITE_P(All, RunPrograms,
                         ::testing::Combine(::testing::ValuesIn(Programs), ::testing::ValuesIn(Arches)),
                         [](const auto &I) {
                           return std::string(std::get<0>(I.param).name) + "_" + std::get<1>(I.param).name;
                         });
// 32-bit glibc (i386, armhf): the programs whose output does not depend on
// the size of long (hello prints one) nor on where clang's Arm assembler
// puts an IFUNC's address (ifunc): constructors and destructors run from
// arrays of 4-byte pointers.
const ArchCase Arches32[] = {{"i386", Arch::I386}, {"arm", Arch::Arm}};
const Program Programs32[] = {
    {"globals", {"run/globals.c"}, {}, {}},
    {"floats", {"run/floats.c"}, {}, {}},
    {"lists", {"run/lists.c"}, {}, {}},
    {"sort", {"run/sort.c"}, {}, {}},
    {"weak", {"run/weak.c", "run/weak_strong.c"}, {}, {}},
    {"ctors", {"run/ctors.c"}, {}, {}},
    {"seed_hello_world", {"seed/hello-world.c"}, {}, {}},
};
INSTANTIATE_TEST_SUITE_P(Glibc32, RunPrograms,
                         ::testing::Combine(::testing::ValuesIn(Programs32), ::testing::ValuesIn(Arches32)),
                         [](const auto &I) {
                           return std::string(std::get<0>(I.param).name) + "_" + std::get<1>(I.param).name;
                         });

// A direct-call run (-entry other than main) with glibc: the start code
// initialises glibc (TLS, malloc, stdio, constructors), calls the entry as
// it would main, and exits with its result, stdout flushed: what
// llvm-jitlink-22 -entry prints for the same source natively. -call runs
// its function in a process so started. -noexec links that start code too;
// a missing entry is the error named.
class DirectEntry : public ::testing::TestWithParam<ArchCase> {};
TEST_P(DirectEntry, RuntimeInitialisedAndFlushed) {
  std::string Tag = std::string("entry-") + GetParam().name;
  ASSERT_EQ(std::system(("mkdir -p " + Out).c_str()), 0);
  std::string Obj = Out + Tag + ".o", HostObj = Out + Tag + "-host.o";
  compile(test::runtimeCFlags(GetParam().arch), "run/entry.c", Obj);
  compile("", "run/entry.c", HostObj);
  Result Ref = runCommand("llvm-jitlink-22 -entry=greet " + HostObj + " -args prog a b", Tag + "-ref");
  ASSERT_EQ(Ref.code, 7) << Ref.err;
  ASSERT_EQ(Ref.out, "argc=3 ready=42 last=b len=15\n");
  Result R = runCommand(Linklab + " -entry=greet " + Obj + " -args prog a b", Tag);
  EXPECT_EQ(R.code, 7) << R.err;
  EXPECT_EQ(R.out, Ref.out);
  EXPECT_EQ(R.err, "");
  // Through a plan: the process starts first (the start code stops where
  // main would begin), stdio is flushed after the call.
  Result Call = runCommand(Linklab + " -call=scaled -call-sig='i32(i32,i32)' -call-args=6,7 " + Obj, Tag + "-call");
  EXPECT_EQ(Call.code, 0) << Call.err;
  EXPECT_EQ(Call.out, "scaled(6*7) ready=42\nreturn: 84\n");
  EXPECT_EQ(Call.err, "");
  Result NoExec = runCommand(Linklab + " -noexec -entry=greet -show-graphs=crt1 " + Obj, Tag + "-noexec");
  EXPECT_EQ(NoExec.code, 0) << NoExec.err;
  EXPECT_NE(NoExec.out.find("crt1.o\" post-fixup:"), std::string::npos) << NoExec.out;
  Result Missing = runCommand(Linklab + " -entry=nosuch " + Obj, Tag + "-missing");
  EXPECT_EQ(Missing.code, 1);
  EXPECT_EQ(Missing.err.rfind("linklab error: Symbols not found: [ nosuch ]", 0), 0u) << Missing.err;
}
INSTANTIATE_TEST_SUITE_P(All, DirectEntry, ::testing::ValuesIn(Arches),
                         [](const auto &I) { return std::string(I.param.name); });

// glibc parity (issue 11): ordinary C programs (tests/inputs/parity)
// compiled with plain `clang-22 --target=T` at -O0 and -O2 -fPIC, run by
// linklab, must print, report on stderr and exit exactly as the same
// objects linked the ordinary way with glibc: by gcc for this x86-64 host,
// by the cross gcc-12 -static, run under qemu-user with the cross glibc,
// elsewhere. The reference links the -O2 objects: the same code, so a
// difference is the link's or the runtime's, and no third compile.
struct ParityCase {
  const char *name;
  Arch arch;
  const char *clangFlags;   // a plain target: glibc's headers are the default
  const char *reference;    // links the reference: OBJS, EXE
  const char *cxxReference; // ... of C++ objects
  const char *runner;       // runs it with argv[0] "./prog"
};
void PrintTo(const ParityCase &C, std::ostream *OS) { *OS << C.name; }
const ParityCase ParityArches[] = {
    {"x86_64", Arch::X86_64, "--target=x86_64-linux-gnu", "gcc OBJS -o EXE -lm", "g++ OBJS -o EXE",
     "exec -a ./prog EXE"},
    {"aarch64", Arch::AArch64, "--target=aarch64-linux-gnu", "aarch64-linux-gnu-gcc-12 -static OBJS -o EXE -lm",
     "aarch64-linux-gnu-g++-12 -static OBJS -o EXE", "qemu-aarch64 -L /usr/aarch64-linux-gnu -0 ./prog EXE"},
    {"riscv64", Arch::RISCV64, "--target=riscv64-linux-gnu -march=rv64gc",
     "riscv64-linux-gnu-gcc-12 -static OBJS -o EXE -lm", "riscv64-linux-gnu-g++-12 -static OBJS -o EXE",
     "qemu-riscv64 -L /usr/riscv64-linux-gnu -0 ./prog EXE"},
};
const char *const ParityPrograms[] = {
    "stdio_stdlib",  "strings",      "errors_exit",   "abort",          "clocks",          "signals",
    "abort_handler", "stdin",        "file_probes",   "long_double",    "locale_wide",     "fds_select",
    "math_complex",  "printf_flags", "scanf_forms",   "setjmp_longjmp", "varargs_structs", "time_formats",
    "getopt_args",   "search_sort",  "exit_order",    "stack_bss",      "memstreams",      "strto_edges",
    "threads",       "fenv",         "address_space", "files",          "traps",           "signaling_nans"};

// The parity programs but one, for an arch that cannot compare it.
std::vector<const char *> parityProgramsBut(std::string_view Left) {
  std::vector<const char *> Kept;
  for (const char *P : ParityPrograms)
    if (P != Left)
      Kept.push_back(P);
  return Kept;
}

// A program's stdin: its NAME.stdin beside it, fed through a pipe as a
// shell would (the others keep the test's own stdin).
std::string stdinFor(const std::string &Source) {
  std::string Feed = Source.substr(0, Source.rfind('.')) + ".stdin";
  return std::ifstream(Feed) ? "cat " + Feed + " | " : "";
}

// A program's input file: its NAME.input beside it, which the reference
// opens in its working directory (the parity folder) and linklab's run gets
// with -file (the shell prefix and the linklab option; both empty without one).
std::pair<std::string, std::string> inputFor(const std::string &Source) {
  std::string Dir = Source.substr(0, Source.rfind('/')), Input = Source.substr(0, Source.rfind('.')) + ".input";
  if (!std::ifstream(Input))
    return {};
  return {"cd " + Dir + " && ", " -file " + Input.substr(Dir.size() + 1) + "=" + Input};
}

std::string substitute(std::string S, const std::string &From, const std::string &To) {
  for (size_t At; (At = S.find(From)) != std::string::npos;)
    S.replace(At, From.size(), To);
  return S;
}

// A's runner for the program EXE.
std::string runnerFor(const ParityCase &A, const std::string &Exe) {
  return substitute(substitute(A.runner, "I386_EXEC", test::i386Exec()), "EXE", Exe);
}

// Compiles Sources (in tests/inputs/Folder, in link order) with Compiler
// at -O0 and at -O2 -fPIC, links the -O2 objects with Reference (OBJS, EXE)
// and runs that, then runs linklab (with Options) on each level's objects:
// each run must exit, print and report on stderr as the reference did.
void expectParity(const ParityCase &A, const std::string &Tag, const std::string &Folder,
                  const std::vector<std::string> &Sources, const char *Compiler, const char *Reference,
                  const std::string &Options) {
  ASSERT_EQ(std::system(("mkdir -p " + Out).c_str()), 0);
  std::map<std::string, std::string> Objects; // by level: the objects, in link order
  for (const char *Opt : {"-O0", "-O2 -fPIC"})
    for (size_t I = 0; I < Sources.size(); ++I) {
      std::string Obj = Out + Tag + "-" + std::to_string(I) + "-" + std::string(Opt).substr(0, 3) + ".o";
      std::string Cmd = std::string(Compiler) + " -c " + Opt + " " + A.clangFlags + " " + Src + Folder + "/" +
                        Sources[I] + " -o " + Obj;
      ASSERT_EQ(std::system(Cmd.c_str()), 0) << Cmd;
      Objects[Opt] += " " + Obj;
    }
  std::string Exe = Out + Tag + "-ref",
              Build = substitute(substitute(Reference, "OBJS", Objects["-O2 -fPIC"]), "EXE", Exe);
  ASSERT_EQ(std::system(Build.c_str()), 0) << Build;
  std::string First = Src + Folder + "/" + Sources[0], Feed = stdinFor(First);
  auto [InDir, FileOption] = inputFor(First);
  auto RunReference = [&] {
    Result Ref = runCommand("bash -c " + quote(InDir + Feed + runnerFor(A, Exe) + " a 'b c'"), Tag + "-ref");
    // qemu-user's and the shell's reports of a killed process are not the program's output.
    for (const char *Report : {"qemu: uncaught target signal", "Aborted"})
      if (size_t At = Ref.err.find(Report); At != std::string::npos)
        Ref.err.erase(At, Ref.err.find('\n', At) + 1 - At);
    return Ref;
  };
  Result Ref = RunReference();
  for (auto &[Opt, Objs] : Objects) {
    std::string Cmd = Feed + Linklab + Options + Objs + FileOption + " -args ./prog a 'b c'";
    Result Linked = runCommand(Cmd, Tag);
    // The reference run is the oracle, but a timed wait under qemu-user has
    // been seen to end early on a loaded machine: a second reference run
    // settles it. A difference in linklab's own output stays one.
    if (Linked.out != Ref.out)
      Ref = RunReference();
    EXPECT_EQ(Linked.code, Ref.code) << Cmd << "\nstderr: " << Linked.err;
    EXPECT_EQ(Linked.out, Ref.out) << Cmd;
    // linklab adds its one-line report of a killed process after the program's own stderr.
    EXPECT_EQ(Linked.err.substr(0, Ref.err.size()), Ref.err) << Cmd;
    if (Ref.code < 128)
      EXPECT_EQ(Linked.err, Ref.err) << Cmd;
  }
}

class GlibcParity : public ::testing::TestWithParam<std::tuple<const char *, ParityCase>> {};

TEST_P(GlibcParity, MatchesGlibcBuild) {
  auto &[Name, A] = GetParam();
  expectParity(A, std::string("parity-") + Name + "-" + A.name, "parity", {std::string(Name) + ".c"}, "clang-22",
               A.reference, "");
}

INSTANTIATE_TEST_SUITE_P(All, GlibcParity,
                         ::testing::Combine(::testing::ValuesIn(ParityPrograms), ::testing::ValuesIn(ParityArches)),
                         [](const auto &I) {
                           return std::string(std::get<0>(I.param)) + "_" + std::get<1>(I.param).name;
                         });
// i386: gcc -m32 -static (g++ for C++), run natively where the kernel can
// (else under qemu-i386, test_support.h). long_double is left out: its
// digits are the x87's transcendental instructions' (linklab runs them on
// the host's x87), which qemu-i386 computes otherwise in places (fyl2xp1's
// last bit in log1pl(2), no quotient bits from fprem1 for remquo); the
// x86-64 case checks them against the CPU.
const ParityCase ParityArchesI386[] = {
    {"i386", Arch::I386, "--target=i386-linux-gnu -idirafter /usr/include/x86_64-linux-gnu",
     "gcc -m32 -static OBJS -o EXE -lm", "g++ -m32 -static OBJS -o EXE", "I386_EXEC EXE"},
};
INSTANTIATE_TEST_SUITE_P(I386, GlibcParity,
                         ::testing::Combine(::testing::ValuesIn(parityProgramsBut("long_double")),
                                            ::testing::ValuesIn(ParityArchesI386)),
                         [](const auto &I) {
                           return std::string(std::get<0>(I.param)) + "_" + std::get<1>(I.param).name;
                         });
// 32-bit Arm (armhf): the cross gcc-12/g++-12 -static under qemu-arm.
// stdio_stdlib is left out: it prints malloc's 16-byte alignment, which on
// Arm (8-byte malloc alignment) follows the TLS image's size, and linklab
// pulls archive members a static linker leaves out (lc-collate.o and the
// other locale categories, named by weak references), so its image is larger.
const ParityCase ParityArchesArm[] = {
    {"arm", Arch::Arm, "--target=armv7a-linux-gnueabihf", "arm-linux-gnueabihf-gcc-12 -static OBJS -o EXE -lm",
     "arm-linux-gnueabihf-g++-12 -static OBJS -o EXE", "qemu-arm -L /usr/arm-linux-gnueabihf -0 ./prog EXE"},
};
const std::vector<const char *> ParityProgramsArm = parityProgramsBut("stdio_stdlib");
INSTANTIATE_TEST_SUITE_P(
    Arm, GlibcParity, ::testing::Combine(::testing::ValuesIn(ParityProgramsArm), ::testing::ValuesIn(ParityArchesArm)),
    [](const auto &I) { return std::string(std::get<0>(I.param)) + "_" + std::get<1>(I.param).name; });

// C++ parity (issue 11): ordinary C++ programs (tests/inputs/parity-cxx),
// some of several objects (an exception thrown in one and caught in another,
// static initialization across objects), compiled with plain
// `clang++-22 --target=T` at -O0 and -O2 -fPIC, linked by linklab against
// libstdc++ and glibc, must behave exactly as the same objects linked by
// g++ natively (-m32 -static for i386) and by the cross g++-12 -static,
// run under qemu-user. On 32-bit Arm the exceptions unwind through the sorted
// .ARM.exidx table (link/arm_exidx.h).
struct CxxProgram {
  const char *name;
  std::vector<std::string> sources;    // in tests/inputs/parity-cxx, in link order
  const char *compiler = "clang++-22"; // with the flags the sources need
};
void PrintTo(const CxxProgram &C, std::ostream *OS) { *OS << C.name; }
const CxxProgram CxxPrograms[] = {
    {"containers", {"containers.cpp"}},
    {"exceptions", {"throw_main.cpp", "throw_lib.cpp"}},
    {"static_init", {"static_init_a.cpp", "static_init_b.cpp"}},
    {"rtti_tls", {"rtti_tls.cpp"}},
    {"threads", {"threads.cpp"}},
    {"uncaught", {"uncaught.cpp"}},
    {"cin", {"cin.cpp"}},
    {"timed_waits", {"timed_waits.cpp"}},
    {"formatting", {"formatting.cpp"}},
    {"library", {"library.cpp"}},
    {"exceptions_std", {"exceptions_std.cpp"}},
    {"objects", {"objects.cpp"}},
    {"inline_across", {"inline_across_a.cpp", "inline_across_b.cpp"}},
    {"tls_across", {"tls_across_a.cpp", "tls_across_b.cpp"}},
    {"new_delete", {"new_delete.cpp"}},
    {"streams", {"streams.cpp"}},
    {"wide_streams", {"wide_streams.cpp"}},
    {"noexcept_violation", {"noexcept_violation.cpp"}},
    {"static_ctor_throw", {"static_ctor_throw.cpp"}},
    {"static_dtor_throw", {"static_dtor_throw.cpp"}},
    {"exit_paths", {"exit_paths.cpp"}},
    {"matrix_types", {"matrix_types.cpp"}, "clang++-22 -fenable-matrix"},
};

class CxxParity : public ::testing::TestWithParam<std::tuple<CxxProgram, ParityCase>> {};

TEST_P(CxxParity, MatchesGlibcBuild) {
  auto &[P, A] = GetParam();
  expectParity(A, std::string("parity-cxx-") + P.name + "-" + A.name, "parity-cxx", P.sources, P.compiler,
               A.cxxReference, " -runtime=glibc");
}

INSTANTIATE_TEST_SUITE_P(All, CxxParity,
                         ::testing::Combine(::testing::ValuesIn(CxxPrograms), ::testing::ValuesIn(ParityArches)),
                         [](const auto &I) {
                           return std::string(std::get<0>(I.param).name) + "_" + std::get<1>(I.param).name;
                         });
INSTANTIATE_TEST_SUITE_P(I386, CxxParity,
                         ::testing::Combine(::testing::ValuesIn(CxxPrograms), ::testing::ValuesIn(ParityArchesI386)),
                         [](const auto &I) {
                           return std::string(std::get<0>(I.param).name) + "_" + std::get<1>(I.param).name;
                         });
INSTANTIATE_TEST_SUITE_P(Arm, CxxParity,
                         ::testing::Combine(::testing::ValuesIn(CxxPrograms), ::testing::ValuesIn(ParityArchesArm)),
                         [](const auto &I) {
                           return std::string(std::get<0>(I.param).name) + "_" + std::get<1>(I.param).name;
                         });

// A C++ object needing what neither it nor the runtime defines: the link
// fails naming the (mangled, as llvm-jitlink names them) symbols and the
// object, on every arch; nothing runs.
class CxxMissing : public ::testing::TestWithParam<ParityCase> {};
TEST_P(CxxMissing, NamesSymbolAndObject) {
  std::string Tag = std::string("parity-cxx-missing-") + GetParam().name;
  ASSERT_EQ(std::system(("mkdir -p " + Out).c_str()), 0);
  std::ofstream(Out + Tag + ".cpp") << "struct Widget { Widget(); virtual ~Widget(); };\n"
                                       "int main() { Widget W; throw 1; }\n";
  std::string Obj = Out + Tag + ".o";
  std::string Compile = "clang++-22 -c " + std::string(GetParam().clangFlags) + " " + Out + Tag + ".cpp -o " + Obj;
  ASSERT_EQ(std::system(Compile.c_str()), 0) << Compile;
  Result R = runCommand(Linklab + " -runtime=glibc " + Obj, Tag);
  EXPECT_EQ(R.code, 1);
  EXPECT_EQ(R.out, "");
  EXPECT_EQ(R.err, "linklab error: Symbols not found: [ _ZN6WidgetC1Ev _ZN6WidgetD1Ev ] (referenced by " + Obj + ")\n");
}
INSTANTIATE_TEST_SUITE_P(All, CxxMissing, ::testing::ValuesIn(ParityArches),
                         [](const auto &I) { return std::string(I.param.name); });
INSTANTIATE_TEST_SUITE_P(I386, CxxMissing, ::testing::ValuesIn(ParityArchesI386),
                         [](const auto &I) { return std::string(I.param.name); });
INSTANTIATE_TEST_SUITE_P(Arm, CxxMissing, ::testing::ValuesIn(ParityArchesArm),
                         [](const auto &I) { return std::string(I.param.name); });

// The seed's harness example, verbatim command line: the mock overrides the
// tested object's definition, the static function under test is reachable.
class SeedHarness : public ::testing::TestWithParam<ArchCase> {};
TEST_P(SeedHarness, MockAndStaticFunction) {
  std::string Tag = std::string("harness-") + GetParam().name;
  ASSERT_EQ(std::system(("mkdir -p " + Out).c_str()), 0);
  // As the seed builds them (`clang -c`, no optimisation: at -O1 the mock's
  // original would be inlined into the function under test).
  compile(test::runtimeCFlags(GetParam().arch), "seed/test_code.c", Out + Tag + "-test_code.o", "-O0");
  compile(test::runtimeCFlags(GetParam().arch), "seed/test_code_harness.c", Out + Tag + "-test_code_harness.o", "-O0");
  Result R = runCommand(
      Linklab + " -phony-externals " + Out + Tag + "-test_code.o -harness " + Out + Tag + "-test_code_harness.o", Tag);
  EXPECT_EQ(R.code, 0) << R.err;
  EXPECT_EQ(R.out, "used mock utility function\nY is 42\n");
  // Without -phony-externals the untested function's reference stays (it
  // shares a block with the mocked one), as with llvm-jitlink.
  Result NoPhony = runCommand(Linklab + " " + Out + Tag + "-test_code.o -harness " + Out + Tag + "-test_code_harness.o",
                              Tag + "-nophony");
  EXPECT_EQ(NoPhony.code, 1);
  EXPECT_NE(NoPhony.err.find("irrelevant_external"), std::string::npos) << NoPhony.err;
}
INSTANTIATE_TEST_SUITE_P(All, SeedHarness, ::testing::ValuesIn(Arches),
                         [](const auto &I) { return std::string(I.param.name); });

// x86-64 instructions the executor computes itself instead of through
// Unicorn 2.0's helpers (emulator/x86_helpers.cpp): SSE2 integer operations
// on every lane (both operands one register too) and 128-by-64-bit
// division, printed as the same source run natively prints them; with
// LINKLAB_EXECUTOR_X86_HELPERS=1, Unicorn's helpers must print the same. A
// quotient that does not fit is a divide error at the divq itself: SIGFPE,
// which kills the process as natively (128 + 8).
TEST(RunX86Helpers, SseAndDivisionMatchNative) {
  const std::string Tag = "x86-sse-divide";
  ASSERT_EQ(std::system(("mkdir -p " + Out).c_str()), 0);
  std::string Obj = Out + Tag + ".o", Exe = Out + Tag + "-native";
  compile(test::runtimeCFlags(Arch::X86_64), "x86/sse_divide.c", Obj);
  ASSERT_EQ(std::system(("clang-22 -O1 " + Src + "x86/sse_divide.c -o " + Exe).c_str()), 0);
  Result Native = runCommand(Exe, Tag + "-native");
  ASSERT_EQ(Native.code, 0) << Native.err;
  ASSERT_NE(Native.out.find("idivq c000000000000000:8000000000000000"), std::string::npos) << Native.out;
  for (const char *Env : {"", "LINKLAB_EXECUTOR_X86_HELPERS=1 "}) {
    SCOPED_TRACE(Env);
    Result R = runCommand(Env + Linklab + " " + Obj, Tag);
    EXPECT_EQ(R.code, 0) << R.err;
    EXPECT_EQ(R.out, Native.out);
    Result Trap = runCommand(Env + Linklab + " " + Obj + " -args prog trap", Tag + "-trap");
    EXPECT_EQ(Trap.code, 136);
    EXPECT_EQ(Trap.out, Native.out);
    EXPECT_NE(Trap.err.find("program killed by SIGFPE at pc "), std::string::npos) << Trap.err;
    EXPECT_NE(Trap.err.find("(trap_divq+0x7 in .text of"), std::string::npos) << Trap.err;
  }
}

} // namespace
