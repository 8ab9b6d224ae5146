// Reproducers: the object model's round trip, -export-test (exported test ->
// re-assembled objects -> the project's lit runner, under both linkers where
// llvm-jitlink-22 can run the case) and -reduce, one test per failure kind,
// each ending at a known minimal set.
#include "test_support.h"

#include "repro/elf_object.h"
#include "repro/reduce.h"
#include "target/target.h"

#include <filesystem>
#include <fstream>

using namespace linklab;
using namespace linklab::test;

namespace {

std::string input(const std::string &Name) { return sourceDir() + "/tests/inputs/repro/" + Name; }

struct ArchCase {
  Arch arch;
  const char *target, *name;
};
const ArchCase Arches[] = {{Arch::X86_64, "x86_64-linux-gnu", "x86_64"},
                           {Arch::AArch64, "aarch64-linux-gnu", "aarch64"},
                           {Arch::RISCV64, "riscv64-linux-gnu", "riscv64"}};

CommandResult lit(const std::string &Test, const TempDir &D) {
  return runCommand("python3 " + sourceDir() + "/tests/lit/run-lit.py --linklab " + linklabPath() + " --out '" +
                    D.file("lit") + "' '" + Test + "'");
}

std::string readAll(const std::string &Path) {
  auto B = readBytes(Path);
  return std::string(B->begin(), B->end());
}

// The named symbols an object defines or references (no section, file or
// mapping symbols).
std::set<std::string> symbolNames(const std::string &Path) {
  auto B = readBytes(Path);
  auto O = repro::readElfObject(Path, *B);
  EXPECT_TRUE(bool(O)) << Path;
  std::set<std::string> Out;
  if (O)
    for (auto &S : O->symbols)
      if (!S.name.empty() && S.type != 3 /*section*/ && S.type != 4 /*file*/ && S.name[0] != '$' &&
          !S.name.starts_with(".L"))
        Out.insert(S.name);
  return Out;
}

size_t relocationCount(const std::string &Path, const std::string &Section) {
  auto B = readBytes(Path);
  auto O = repro::readElfObject(Path, *B);
  size_t N = 0;
  if (O)
    for (auto &S : O->sections)
      if (S.name == Section)
        N += S.relocs.size();
  return N;
}

} // namespace

// Read -> write keeps the link graph (tables aside) for each arch's objects.
TEST(Repro, ElfObjectRoundTripKeepsTheGraph) {
  TempDir D;
  for (auto &A : Arches) {
    std::string Obj = compile(D, input("prog.c"), A.target, runtimeCFlags(A.arch) + " -O1", std::string(A.name) + ".o");
    auto Bytes = readBytes(Obj);
    auto M = repro::readElfObject("prog.o", *Bytes);
    ASSERT_TRUE(bool(M)) << M.takeError().message();
    auto Again = std::make_shared<std::vector<char>>(repro::writeElfObject(*M));
    auto G1 = createLinkGraph("prog.o", Bytes), G2 = createLinkGraph("prog.o", Again);
    ASSERT_TRUE(G1 && G2) << A.name;
    // Every section's blocks and every symbol/edge line, except the string
    // table whose size depends on suffix sharing.
    auto strip = [](std::string Dump) {
      return std::regex_replace(Dump, std::regex("section \\.strtab:\n\n  block [^\n]*\n"), "");
    };
    EXPECT_EQ(strip((*G1)->dump()), strip((*G2)->dump())) << A.name;
  }
}

TEST(Repro, BadInputIsAnErrorNamingIt) {
  std::vector<char> Junk = {'\x7f', 'E', 'L', 'F', 2, 1, 1};
  auto M = repro::readElfObject("junk.o", Junk);
  ASSERT_FALSE(bool(M));
  EXPECT_NE(M.takeError().message().find("junk.o"), std::string::npos);
}

// A program run: the exported test rebuilds the objects (assembly where
// llvm-mc gives the same graph back), checks the fixups and compares the
// exit status and output; it passes under the lit runner.
TEST(Repro, ExportRunPassesLitOnEachArch) {
  for (auto &A : Arches) {
    TempDir D;
    std::string Flags = runtimeCFlags(A.arch) + " -O1";
    std::string P = compile(D, input("prog.c"), A.target, Flags, "prog.o");
    std::string H = compile(D, input("helper.c"), A.target, Flags, "helper.o");
    std::string Dir = D.file(std::string("exp_") + A.name);
    auto R = runCommand(linklabPath() + " -export-test=" + Dir + " " + P + " " + H);
    EXPECT_EQ(R.status, 7) << R.output;
    EXPECT_NE(R.output.find("value 8"), std::string::npos) << R.output;
    std::string Test = Dir + "/exp_" + A.name + ".s";
    ASSERT_TRUE(std::filesystem::exists(Test)) << R.output;
    std::string Text = readAll(Test);
    EXPECT_NE(Text.find(".reloc "), std::string::npos) << "prog.o should be assembly:\n" << Text;
    EXPECT_NE(Text.find("# jitlink-check: "), std::string::npos) << Text;
    EXPECT_NE(Text.find("test $? -eq 7"), std::string::npos) << Text;
    auto L = lit(Test, D);
    EXPECT_EQ(L.status, 0) << A.name << ":\n" << L.output << "\n" << Text;
    // x86-64 programs run under llvm-jitlink-22 too; the others cannot here.
    EXPECT_EQ(L.output.find("PASS [llvm-jitlink]") != std::string::npos, A.arch == Arch::X86_64) << L.output;
  }
}

// A faulting run: linklab exits 128+SIGSEGV, which `not` takes for a crash;
// the exported test checks that status and the report's stable part (the
// kind, the null pointer's offset; not the pc, which moves with the layout).
TEST(Repro, ExportFaultPassesLit) {
  TempDir D;
  std::string P =
      compile(D, input("null_field.c"), "x86_64-linux-gnu", runtimeCFlags(Arch::X86_64) + " -O1", "null_field.o");
  std::string Dir = D.file("fault");
  auto R = runCommand(linklabPath() + " -export-test=" + Dir + " " + P);
  EXPECT_EQ(R.status, 139) << R.output;
  EXPECT_NE(R.output.find("; linklab only)"), std::string::npos) << R.output;
  std::string Test = Dir + "/fault.s";
  if (!std::filesystem::exists(Test))
    Test = Dir + "/fault.test";
  ASSERT_TRUE(std::filesystem::exists(Test)) << R.output;
  std::string Text = readAll(Test);
  EXPECT_NE(Text.find("test $? -eq 139"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("not linklab"), std::string::npos) << Text;
  EXPECT_NE(Text.find("# FAULT: error: program read of unmapped memory at pc {{.*}}, null pointer+0x10\n"),
            std::string::npos)
      << Text;
  auto L = lit(Test, D);
  EXPECT_EQ(L.status, 0) << L.output << "\n" << Text;
  // The same test fails when the fault is another one.
  std::string Wrong = std::regex_replace(Text, std::regex("null pointer\\+0x10"), "null pointer+0x18");
  std::ofstream(Test, std::ios::trunc) << Wrong;
  EXPECT_NE(lit(Test, D).status, 0) << Wrong;
}

// A program that ends itself by a signal (abort(), raise(SIGTERM)) is not a
// fault, but exports on the same path: the run's record says which signal
// ended it; the test expects 128+signal and the report's stable part.
TEST(Repro, ExportOfARunEndedByItsOwnSignalPassesLit) {
  TempDir D;
  std::string P = compile(D, input("ends_by_signal.c"), "x86_64-linux-gnu", runtimeCFlags(Arch::X86_64) + " -O1",
                          "ends_by_signal.o");
  struct {
    const char *name, *args, *signal;
    int status;
  } Cases[] = {{"abort", "", "SIGABRT", 134}, {"term", " -args ends_by_signal term", "SIGTERM", 143}};
  for (auto &C : Cases) {
    std::string Dir = D.file(C.name);
    auto R = runCommand(linklabPath() + " -export-test=" + Dir + " " + P + C.args);
    EXPECT_EQ(R.status, C.status) << R.output;
    std::string Test = Dir + "/" + C.name + ".s";
    ASSERT_TRUE(std::filesystem::exists(Test)) << R.output;
    std::string Text = readAll(Test);
    std::string Runs = std::regex_replace(Text, std::regex("\\\\\n# RUN: +"), ""); // RUN lines wrap
    EXPECT_NE(Runs.find("test $? -eq " + std::to_string(C.status) + "\n"), std::string::npos) << Text;
    EXPECT_NE(Text.find(std::string("# FAULT: error: program killed by ") + C.signal + " at pc {{.*}}\n"),
              std::string::npos)
        << Text;
    EXPECT_EQ(readAll(Dir + "/" + C.name + ".stdout"), "ending\n");
    auto L = lit(Test, D);
    EXPECT_EQ(L.status, 0) << C.name << ":\n" << L.output << "\n" << Text;
  }
}

// Objects that take functions' addresses carry .llvm_addrsig; RISC-V ones
// carry repeated ".L0 " labels (relaxation), which the assembly renames
// apart. Each export rebuilds them as assembly llvm-mc-22 re-assembles to the
// same graph, and its test passes, fed the stdin the session read (piped
// in); when neither assembly nor YAML rebuilds an object, the export is an
// error with a non-zero exit, not a note.
TEST(Repro, ExportOfAddressTakenFunctionsRebuildsOnEachArch) {
  for (auto &A : Arches) {
    TempDir D;
    std::string Flags = runtimeCFlags(A.arch) + " -O1";
    std::string M = compile(D, input("table_main.c"), A.target, Flags, "table_main.o");
    std::string O = compile(D, input("table_ops.c"), A.target, Flags, "table_ops.o");
    std::string Dir = D.file("tbl");
    auto R = runCommand("printf '6 7\\n' | " + linklabPath() + " -export-test=" + Dir + " " + M + " " + O);
    EXPECT_EQ(R.status, 3) << A.name << ": " << R.output;
    EXPECT_NE(R.output.find("mul(6, 7) = 42"), std::string::npos) << R.output;
    std::string Test = Dir + "/tbl.s"; // the first object as assembly: the test file
    ASSERT_TRUE(std::filesystem::exists(Test)) << A.name << ": " << R.output;
    EXPECT_EQ(readAll(Dir + "/tbl.stdin"), "6 7\n");
    EXPECT_NE(readAll(Test).find("%S/tbl.stdin"), std::string::npos) << readAll(Test);
    EXPECT_NE(readAll(Dir + "/tbl.stdout").find("mul(6, 7) = 42"), std::string::npos);
    EXPECT_EQ(R.output.find("written as YAML"), std::string::npos) << A.name << ": " << R.output;
    EXPECT_EQ(R.output.find("local labels whose name it uses more than once are renamed") != std::string::npos,
              A.arch == Arch::RISCV64)
        << A.name << ": " << R.output;
    auto L = lit(Test, D);
    EXPECT_EQ(L.status, 0) << A.name << ":\n" << L.output << "\n" << R.output;
    // llvm-jitlink-22, fed the same stdin, agrees on x86-64 (the only arch it runs here).
    EXPECT_EQ(L.output.find("PASS [llvm-jitlink]") != std::string::npos, A.arch == Arch::X86_64) << L.output;
  }
  // No tool rebuilds the RISC-V object: an llvm-mc-22 and a yaml2obj-22
  // that always fail first on PATH.
  TempDir D;
  std::string Flags = runtimeCFlags(Arch::RISCV64) + " -O1";
  std::string M = compile(D, input("table_main.c"), "riscv64-linux-gnu", Flags, "table_main.o");
  std::string Bin = D.file("bin");
  std::filesystem::create_directories(Bin);
  for (const char *Tool : {"yaml2obj-22", "llvm-mc-22"}) {
    std::ofstream(Bin + "/" + Tool) << "#!/bin/sh\necho 'yaml2obj: error: refused' >&2\nexit 1\n";
    std::filesystem::permissions(Bin + "/" + Tool, std::filesystem::perms::owner_all);
  }
  auto R = runCommand("PATH=" + Bin + ":$PATH " + linklabPath() + " -export-test=" + D.file("bad") + " " + M);
  EXPECT_NE(R.status, 0) << R.output;
  EXPECT_EQ(R.status, 1) << R.output;
  EXPECT_NE(R.output.find("export: the test would not rebuild its inputs: "), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("yaml2obj-22: yaml2obj: error: refused"), std::string::npos) << R.output;
}

// A -noexec link runs under both linkers on every arch.
TEST(Repro, ExportNoExecPassesBothLinkersOnEachArch) {
  for (auto &A : Arches) {
    TempDir D;
    std::string Flags = runtimeCFlags(A.arch) + " -O1";
    std::string P = compile(D, input("prog.c"), A.target, Flags, "prog.o");
    std::string H = compile(D, input("helper.c"), A.target, Flags, "helper.o");
    std::string Dir = D.file("nx");
    auto R = runCommand(linklabPath() + " -noexec -no-process-syms -phony-externals -export-test=" + Dir + " " + P +
                        " " + H);
    EXPECT_EQ(R.status, 0) << R.output;
    std::string Test = std::filesystem::exists(Dir + "/nx.s") ? Dir + "/nx.s" : Dir + "/nx.test";
    auto L = lit(Test, D);
    EXPECT_EQ(L.status, 0) << A.name << ":\n" << L.output << "\n" << R.output;
    EXPECT_NE(L.output.find("PASS [llvm-jitlink]"), std::string::npos) << A.name << ":\n" << L.output;
  }
}

// Objects sharing a thread-local: the rules are generated from a link with
// the session TLS layout `linklab -noexec` has (without it, the exporter's
// own link failed on the TPOFF fixup and the test had no rules).
TEST(Repro, ExportRulesForTLSAcrossObjects) {
  TempDir D;
  std::string M = assemble(D, R"(
  .text
  .globl main
main:
  movl %fs:counter@tpoff, %eax
  leaq limit(%rip), %rcx
  retq
)",
                           "x86_64-unknown-linux-gnu", "tls_main.o");
  std::string T = assemble(D, R"(
  .section .tbss,"awT",@nobits
  .globl counter
  .p2align 2
counter:
  .zero 4
  .data
  .globl limit
limit:
  .long 7
)",
                           "x86_64-unknown-linux-gnu", "tls_def.o");
  std::string Dir = D.file("tls");
  auto R = runCommand(linklabPath() + " -noexec -no-process-syms -export-test=" + Dir + " " + M + " " + T);
  EXPECT_EQ(R.status, 0) << R.output;
  std::string Text = readAll(Dir + "/tls.s");
  EXPECT_EQ(Text.find("the -noexec link for them failed"), std::string::npos) << Text;
  EXPECT_NE(Text.find("# jitlink-check: *{4}(main + 0xb) = "), std::string::npos) << Text;
  auto L = lit(Dir + "/tls.s", D);
  EXPECT_EQ(L.status, 0) << L.output << "\n" << Text;
}

// A failing link: the test expects the same error (object names as %t's).
TEST(Repro, ExportLinkErrorPassesLit) {
  TempDir D;
  std::string Flags = runtimeCFlags(Arch::X86_64) + " -O1";
  std::string M = compile(D, input("err_main.c"), "x86_64-linux-gnu", Flags, "err_main.o");
  std::string N = compile(D, input("needs_missing.c"), "x86_64-linux-gnu", Flags, "needs_missing.o");
  std::string Dir = D.file("err");
  auto R = runCommand(linklabPath() + " -noexec -no-process-syms -export-test=" + Dir + " " + M + " " + N);
  EXPECT_NE(R.status, 0) << R.output;
  std::string Text = readAll(Dir + "/err.s");
  EXPECT_NE(Text.find("# ERROR: error: "), std::string::npos) << Text;
  EXPECT_NE(Text.find("missing_fn"), std::string::npos) << Text;
  auto L = lit(Dir + "/err.s", D);
  EXPECT_EQ(L.status, 0) << L.output << "\n" << Text;
}

// Marked sites: only the fixups of the block of `helper`'s caller at one
// offset are checked.
TEST(Repro, ExportChecksOnlyMarkedSites) {
  TempDir D;
  std::string P = assemble(D, R"(
  .text
  .globl main
main:
  callq helper
  leaq data(%rip), %rax
  retq
  .globl helper
helper:
  retq
  .data
data:
  .quad helper
)",
                           "x86_64-unknown-linux-gnu", "m.o");
  std::string Dir = D.file("marked");
  auto R = runCommand(linklabPath() + " -noexec -no-process-syms -export-check=main+8 -export-test=" + Dir + " " + P);
  EXPECT_EQ(R.status, 0) << R.output;
  std::string Text = readAll(Dir + "/marked.s");
  EXPECT_NE(Text.find("# jitlink-check: *{4}(main + 0x8) = "), std::string::npos) << Text;
  EXPECT_EQ(Text.find("# jitlink-check: *{4}(main + 0x1)"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("*{8}"), std::string::npos) << Text;
  EXPECT_EQ(lit(Dir + "/marked.s", D).status, 0);
}

namespace {

struct ReduceInputs {
  std::string main, answer, extra, missing;
};
ReduceInputs reduceInputs(const TempDir &D, const std::string &Main) {
  std::string Flags = runtimeCFlags(Arch::X86_64) + " -O1";
  return {compile(D, input(Main), "x86_64-linux-gnu", Flags, "main.o"),
          compile(D, input("answer.c"), "x86_64-linux-gnu", Flags, "answer.o"),
          compile(D, input("extra.c"), "x86_64-linux-gnu", Flags, "extra.o"),
          compile(D, input("needs_missing.c"), "x86_64-linux-gnu", Flags, "needs_missing.o")};
}

} // namespace

// Error substring: the objects that do not lead to missing_fn go; main's
// object keeps main and its one call; answer2's keeps its call to missing_fn.
TEST(Repro, ReduceKeepsAnErrorSubstring) {
  TempDir D;
  auto In = reduceInputs(D, "err_main.c");
  std::string Out = D.file("red");
  auto R = runCommand(linklabPath() + " -noexec -no-process-syms -reduce -reduce-error=missing_fn -reduce-out=" + Out +
                      " " + In.extra + " " + In.main + " " + In.answer + " " + In.missing);
  ASSERT_EQ(R.status, 0) << R.output;
  EXPECT_NE(R.output.find("removed object " + In.extra), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("removed object " + In.answer), std::string::npos) << R.output;
  EXPECT_FALSE(std::filesystem::exists(Out + "/extra.o"));
  EXPECT_FALSE(std::filesystem::exists(Out + "/answer.o"));
  EXPECT_EQ(symbolNames(Out + "/main.o"), (std::set<std::string>{"main", "answer2"}));
  EXPECT_EQ(symbolNames(Out + "/needs_missing.o"), (std::set<std::string>{"answer2", "missing_fn"}));
  EXPECT_EQ(relocationCount(Out + "/main.o", ".text"), 1u);
  EXPECT_EQ(relocationCount(Out + "/needs_missing.o", ".text"), 1u);
  // The reduced inputs still fail so, and their exported test passes lit.
  auto Again = runCommand(linklabPath() + " -noexec -no-process-syms " + Out + "/main.o " + Out + "/needs_missing.o");
  EXPECT_NE(Again.output.find("missing_fn"), std::string::npos) << Again.output;
  auto L = lit(Out + "/test/test.s", D);
  EXPECT_EQ(L.status, 0) << L.output;
}

// An error substring holds as the whole error it is part of: reduced for
// "Symbols not found", the case keeps failing on missing_fn (removing main's
// definition would fail with "Symbols not found: [ main ]" instead). The
// log names relocations as Inspect does, and ends with the final failure.
TEST(Repro, ReduceKeepsTheWholeErrorASubstringIsPartOf) {
  TempDir D;
  auto In = reduceInputs(D, "err_main.c");
  std::string Out = D.file("red");
  auto R = runCommand(linklabPath() +
                      " -noexec -no-process-syms -reduce '-reduce-error=Symbols not found' -reduce-out=" + Out + " " +
                      In.extra + " " + In.main + " " + In.answer + " " + In.missing);
  ASSERT_EQ(R.status, 0) << R.output;
  const std::string Whole = "Symbols not found: [ missing_fn ] (referenced by needs_missing.o)";
  EXPECT_NE(R.output.find("reduce: keeping the error '" + Whole + "'"), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("reduce: the reduced case fails with: " + Whole + "\n"), std::string::npos) << R.output;
  EXPECT_EQ(symbolNames(Out + "/main.o"), (std::set<std::string>{"main", "answer2"}));
}

// Exit status: main's object and answer() are what return 42. Each
// candidate runs under a limit from the original run's time; the log names
// relocations as Inspect does and ends with the final failure.
TEST(Repro, ReduceKeepsAnExitStatus) {
  TempDir D;
  auto In = reduceInputs(D, "answer_main.c");
  std::string Out = D.file("red");
  auto R = runCommand(linklabPath() + " -reduce -reduce-exit=42 -reduce-out=" + Out + " " + In.main + " " + In.extra +
                      " " + In.answer);
  ASSERT_EQ(R.status, 0) << R.output;
  std::smatch Limit;
  ASSERT_TRUE(std::regex_search(R.output, Limit, std::regex("took (\\d+) ms; each candidate may run for (\\d+) ms")))
      << R.output;
  EXPECT_EQ(std::stoul(Limit[2]), 2 * std::stoul(Limit[1]) + 1000) << R.output;
  EXPECT_NE(R.output.find("removed relocation at .text+0x"), std::string::npos) << R.output;
  EXPECT_TRUE(std::regex_search(R.output, std::regex("removed relocation at \\S+ \\(R_X86_64_\\w+, against ")))
      << R.output;
  EXPECT_EQ(R.output.find("(type "), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("reduce: the reduced case exits with status 42\n"), std::string::npos) << R.output;
  EXPECT_FALSE(std::filesystem::exists(Out + "/extra.o")) << R.output;
  EXPECT_EQ(symbolNames(Out + "/answer.o"), (std::set<std::string>{"answer"})) << R.output;
  auto Again = runCommand(linklabPath() + " " + Out + "/main.o " + Out + "/answer.o");
  EXPECT_EQ(Again.status, 42) << Again.output;
  // Its test expects the exit status, not what the reduced program printed.
  std::string Test = std::filesystem::exists(Out + "/test/test.s") ? Out + "/test/test.s" : Out + "/test/test.test";
  std::ifstream F(Test);
  std::string Text((std::istreambuf_iterator<char>(F)), {});
  EXPECT_NE(Text.find("test $? -eq 42"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("diff %t/stdout"), std::string::npos) << Text;
  EXPECT_NE(Text.find("only its exit status was kept"), std::string::npos) << Text;
  EXPECT_EQ(lit(Test, D).status, 0);
}

// A fault (no -reduce-* option: the failure is what the session does): the
// whole report is kept, kind, pc's symbol and offset, and address (the pc's
// value moves with the layout), so the candidates that fault elsewhere or
// not at all are refused; the noise object goes,
// main stays, and the reduced case faults as the session did (its bundle
// records so).
TEST(Repro, ReduceKeepsAFault) {
  TempDir D;
  std::string Flags = runtimeCFlags(Arch::X86_64) + " -O1";
  std::string Null = compile(D, input("null_field.c"), "x86_64-linux-gnu", Flags, "null_field.o"),
              Extra = compile(D, input("extra.c"), "x86_64-linux-gnu", Flags, "extra.o");
  std::string Out = D.file("red");
  std::string Bundle = D.file("reduced.linklab.json");
  auto R = runCommand(linklabPath() + " -reduce -reduce-out=" + Out + " -save-bundle=" + Bundle + " " + Extra + " " +
                      Null + " < /dev/null");
  ASSERT_EQ(R.status, 0) << R.output;
  // The reduced case's bundle, with the outcome its own run had.
  std::ifstream BF(Bundle);
  std::string BundleText((std::istreambuf_iterator<char>(BF)), {});
  EXPECT_NE(BundleText.find("\"name\":\"null_field.o\""), std::string::npos) << BundleText;
  EXPECT_EQ(BundleText.find("\"name\":\"extra.o\""), std::string::npos) << BundleText;
  EXPECT_NE(BundleText.find("\"status\":\"fault\""), std::string::npos) << BundleText;
  EXPECT_NE(BundleText.find("\"address\":\"0x10\""), std::string::npos) << BundleText;
  std::smatch Kept;
  ASSERT_TRUE(std::regex_search(R.output, Kept,
                                std::regex("reduce: keeping the error '(program read of unmapped "
                                           "memory at pc 0x[0-9a-f]+ \\(main\\+0x[0-9a-f]+ in "
                                           "\\.text of null_field\\.o\\), null pointer\\+0x10 "
                                           "\\(address 0x10\\))'")))
      << R.output;
  // The same fault, at main's offset; its pc moved with extra.o's going.
  std::regex AtPc("at pc 0x[0-9a-f]+ ");
  std::smatch Final;
  ASSERT_TRUE(std::regex_search(R.output, Final, std::regex("reduce: the reduced case fails with: (.*)\n")))
      << R.output;
  EXPECT_EQ(std::regex_replace(Final[1].str(), AtPc, "at pc * "), std::regex_replace(Kept[1].str(), AtPc, "at pc * "));
  EXPECT_NE(R.output.find("removed object " + Extra), std::string::npos) << R.output;
  EXPECT_EQ(R.output.find("against )"), std::string::npos) << R.output; // a section symbol is named by its section
  EXPECT_FALSE(std::filesystem::exists(Out + "/extra.o"));
  EXPECT_TRUE(symbolNames(Out + "/null_field.o").count("main")) << R.output;
  auto Again = runCommand(linklabPath() + " " + Out + "/null_field.o < /dev/null");
  EXPECT_EQ(Again.status, 139) << Again.output;
  EXPECT_NE(Again.output.find("null pointer+0x10 (address 0x10)"), std::string::npos) << Again.output;
  auto L = lit(Out + "/test/test.s", D);
  EXPECT_EQ(L.status, 0) << L.output;
}

// Output mismatch: the program prints 42, the expectation says 41.
TEST(Repro, ReduceKeepsAnOutputMismatch) {
  TempDir D;
  auto In = reduceInputs(D, "answer_main.c");
  std::string Expected = D.write("expected.txt", "41\n");
  std::string Out = D.file("red");
  auto R = runCommand(linklabPath() + " -reduce -reduce-output=" + Expected + " -reduce-out=" + Out + " " + In.main +
                      " " + In.extra + " " + In.answer);
  ASSERT_EQ(R.status, 0) << R.output;
  EXPECT_FALSE(std::filesystem::exists(Out + "/extra.o")) << R.output;
  auto Again = runCommand(linklabPath() + " " + Out + "/main.o " + Out + "/answer.o");
  EXPECT_EQ(Again.output.find("linklab error"), std::string::npos) << Again.output;
  EXPECT_NE(Again.output, "41\n");
}

TEST(Repro, ReduceRefusesAnInputThatDoesNotFail) {
  TempDir D;
  auto In = reduceInputs(D, "answer_main.c");
  auto R = runCommand(linklabPath() + " -reduce -reduce-exit=3 -reduce-out=" + D.file("r") + " " + In.main + " " +
                      In.answer);
  EXPECT_NE(R.status, 0);
  EXPECT_NE(R.output.find("does not fail as specified"), std::string::npos) << R.output;
  auto Two = runCommand(linklabPath() + " -reduce -reduce-exit=3 -reduce-error=x " + In.main);
  EXPECT_NE(Two.output.find("give one of"), std::string::npos) << Two.output;
}

// The time bound: with no time, the reducer stops at once with what holds.
TEST(Repro, ReduceStopsAtItsTimeLimit) {
  repro::ReproCase C;
  C.inputs.resize(3);
  unsigned Calls = 0;
  repro::ReduceOptions O;
  O.seconds = 0;
  auto R = repro::reduce(
      C, [&](const repro::ReproCase &) { return ++Calls > 0; }, O);
  ASSERT_TRUE(bool(R));
  EXPECT_TRUE(R->timedOut);
  EXPECT_EQ(R->reduced.inputs.size(), 3u);
  EXPECT_EQ(Calls, 1u);
}
