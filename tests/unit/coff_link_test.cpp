// COFF x86-64 objects held against llvm-jitlink-22 and run in the executor:
// the freestanding multi-file C program and a file of COFF features (a
// selectany COMDAT, a weak external, thread-local data, .pdata/.xdata),
// compiled at test time, each object linked alone at a fixed slab address,
// give the same graph after fixups (blocks, every edge, every symbol line);
// C++ objects (COMDAT inline functions, vtables, string literals, associative
// .pdata) give the same blocks, edges and symbols up to the order of blocks
// of one size, which llvm-jitlink lays out in hash order. The program computes
// in the executor what llvm-jitlink-22 computes running the same objects
// natively (LLP64: long is 32 bits, so a Linux build is no reference).
// Malformed COFF input is an error, never a crash (the yaml corpus in
// tests/inputs/bad covers the named defects).
#include "test_support.h"

#include "session/session.h"
#include "link/slab_memory_manager.h"

#include <random>
#include <sstream>

using namespace linklab;
using namespace linklab::test;

namespace {

const char *const Triple_ = "x86_64-pc-windows-msvc";


const char *const DumpArgs = " -noexec -phony-externals -show-graphs=.* -slab-allocate=10Mb -slab-address=0x100000 "
                             "-slab-page-size=4096 ";

// A dump without addresses: each block becomes its section, size, alignment,
// symbols (offset in the block) and edges (offset, addend, kind, and a target
// named by symbol or, for anonymous targets, by the block holding it).
std::multiset<std::string> layoutFreeBlocks(const std::string &Dump) {
  struct Blk {
    std::string head;
    uint64_t addr, size;
    std::vector<std::string> syms, edges;
    std::vector<std::pair<uint64_t, std::string>> anonEdges; // target address, rest of line
  };
  std::vector<Blk> Blocks;
  std::string Section;
  static const std::regex SectionRe("^section (.*):$"),
      BlockRe("^  block 0x([0-9a-f]+) size = 0x([0-9a-f]+), (align = .*)$"),
      SymRe("^      0x[0-9a-f]+ \\(block \\+ (0x[0-9a-f]+)\\): (.*)$"),
      EdgeRe("^      0x[0-9a-f]+ \\(block \\+ (0x[0-9a-f]+)\\), (.*)target = (.*)$"),
      AnonRe("^addressable@0x([0-9a-f]+)\\+(0x[0-9a-f]+)$");
  std::istringstream In(Dump);
  std::string Line;
  std::smatch M;
  while (std::getline(In, Line)) {
    if (std::regex_match(Line, M, SectionRe))
      Section = M[1];
    else if (std::regex_match(Line, M, BlockRe))
      Blocks.push_back({Section + " size " + std::string(M[2]) + " " + std::string(M[3]),
                        std::stoull(M[1], nullptr, 16), std::stoull(M[2], nullptr, 16), {}, {}, {}});
    else if (Blocks.empty())
      continue;
    else if (std::regex_match(Line, M, EdgeRe)) {
      std::string Target = M[3];
      std::smatch A;
      if (std::regex_match(Target, A, AnonRe))
        Blocks.back().anonEdges.push_back(
            {std::stoull(A[1], nullptr, 16) + std::stoull(A[2], nullptr, 16), std::string(M[1]) + " " + std::string(M[2])});
      else
        Blocks.back().edges.push_back(std::string(M[1]) + " " + std::string(M[2]) + "target = " + Target);
    } else if (std::regex_match(Line, M, SymRe))
      Blocks.back().syms.push_back(std::string(M[1]) + " " + std::string(M[2]));
  }
  auto Key = [](const Blk &B) {
    std::vector<std::string> S = B.syms;
    std::sort(S.begin(), S.end());
    std::string K = B.head;
    for (auto &L : S)
      K += "\n    " + L;
    return K;
  };
  std::multiset<std::string> Out;
  for (Blk &B : Blocks) {
    for (auto &[Addr, Rest] : B.anonEdges)
      for (const Blk &T : Blocks)
        if (Addr >= T.addr && Addr < T.addr + std::max<uint64_t>(T.size, 1))
          B.edges.push_back(Rest + "target = block{" + Key(T) + "} + " + std::to_string(Addr - T.addr));
    std::sort(B.edges.begin(), B.edges.end());
    std::string Desc = Key(B);
    for (auto &E : B.edges)
      Desc += "\n  edge " + E;
    Out.insert(Desc);
  }
  return Out;
}

std::multiset<std::string> externalLines(const std::string &Dump) {
  std::multiset<std::string> Out;
  std::istringstream In(Dump);
  std::string Line;
  bool InSymbols = false;
  while (std::getline(In, Line)) {
    if (Line == "Absolute symbols:" || Line == "External symbols:")
      InSymbols = true;
    else if (Line.starts_with("Link graph") || Line.starts_with("LinkGraph") || Line.starts_with("section "))
      InSymbols = false;
    else if (InSymbols && !Line.empty())
      Out.insert(Line);
  }
  return Out;
}

class COFFVersusLLVMJITLink : public ::testing::TestWithParam<const char *> {};

TEST_P(COFFVersusLLVMJITLink, ObjectsLinkIdentically) {
  TempDir D;
  size_t Edges = 0;
  const std::pair<std::string, const char *> Sources[] = {
      {freestandingSource("shapes"), "run"}, {freestandingSource("util"), "run"}, {freestandingSource("main"), "run"},
      {sourceDir() + "/tests/inputs/coff/features.c", "features"},
      {sourceDir() + "/tests/inputs/coff/directives.c", "run"}};
  int N = 0;
  for (auto &[Src, Entry] : Sources) {
    std::string Obj = compile(D, Src, Triple_, std::string(GetParam()) + " -ffreestanding",
                              "o" + std::to_string(N++) + ".o");
    std::string Args = std::string(DumpArgs) + "-entry=" + Entry + " " + Obj;
    auto Ours = runCommand(linklabPath() + Args);
    auto Ref = runCommand("llvm-jitlink-22" + Args);
    ASSERT_EQ(Ours.status, 0) << Ours.output;
    ASSERT_EQ(Ref.status, 0) << Ref.output;
    NormalizedDump O = normalizeGraphDump(Ours.output), R = normalizeGraphDump(Ref.output);
    Edges += R.edges.size();
    EXPECT_EQ(diffSets(R.blocks, O.blocks), "") << Src << " " << GetParam();
    EXPECT_EQ(diffSets(R.edges, O.edges), "") << Src << " " << GetParam();
    EXPECT_EQ(diffSets(symbolLines(Ref.output), symbolLines(Ours.output)), "") << Src << " " << GetParam();
  }
  EXPECT_GT(Edges, 15u);
}

TEST_P(COFFVersusLLVMJITLink, CxxObjectsLinkAlike) {
  TempDir D;
  std::string Obj = compile(D, sourceDir() + "/tests/inputs/coff/shapes.cpp", Triple_,
                            std::string(GetParam()) + " -ffreestanding -fno-exceptions -fno-rtti", "cxx.o");
  std::string Args = std::string(DumpArgs) + "-entry=run " + Obj;
  auto Ours = runCommand(linklabPath() + Args);
  auto Ref = runCommand("llvm-jitlink-22" + Args);
  ASSERT_EQ(Ours.status, 0) << Ours.output;
  ASSERT_EQ(Ref.status, 0) << Ref.output;
  auto R = layoutFreeBlocks(Ref.output);
  EXPECT_GT(R.size(), 10u);
  EXPECT_EQ(diffSets(R, layoutFreeBlocks(Ours.output)), "") << GetParam();
  EXPECT_EQ(diffSets(externalLines(Ref.output), externalLines(Ours.output)), "") << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Modes, COFFVersusLLVMJITLink, ::testing::Values("-O0", "-O2"),
                         [](const auto &I) { return std::string(I.param + 1); });

// llvm-jitlink-22 runs these objects natively on this x86-64 host: its exit
// status is the reference.
TEST(COFFLink, FreestandingProgramRunsInExecutor) {
  TempDir D;
  for (const char *Flags : {"-O0", "-O2"}) {
    std::string Objs;
    for (const char *File : {"shapes", "util", "main"})
      Objs += " " + compile(D, freestandingSource(File), Triple_, std::string(Flags) + " -ffreestanding",
                            std::string(Flags) + File + ".o");
    auto Ref = runCommand("llvm-jitlink-22 -entry=run" + Objs);
    auto R = runCommand(linklabPath() + " -runtime=none -entry=run" + Objs);
    EXPECT_EQ(R.status, Ref.status) << Flags << "\n" << R.output << Ref.output;
    EXPECT_NE(Ref.status, 0) << Ref.output;
  }
}

// C++ without long: a Linux build computes the same value.
TEST(COFFLink, CxxProgramRunsInExecutor) {
  TempDir D;
  std::string Src = sourceDir() + "/tests/inputs/coff/shapes.cpp";
  std::string Driver = D.write("driver.cpp", "extern \"C\" int run();\nint main() { return run(); }\n");
  auto Native = runCommand("clang++-22 -O1 -o '" + D.file("native") + "' '" + Driver + "' '" + Src + "' && '" +
                           D.file("native") + "'");
  EXPECT_NE(Native.status, 0) << Native.output;
  // _purecall and operator delete are never reached: no object is destroyed
  // through a base pointer.
  std::string Stubs = assemble(D,
                               ".text\n.globl _purecall\n_purecall: ud2\n"
                               ".globl \"??3@YAXPEAX_K@Z\"\n\"??3@YAXPEAX_K@Z\": ud2\n",
                               Triple_, "stubs.o");
  for (const char *Flags : {"-O0", "-O2"}) {
    std::string Obj = compile(D, Src, Triple_, std::string(Flags) + " -ffreestanding -fno-exceptions -fno-rtti",
                              std::string(Flags) + "cxx.o");
    auto R = runCommand(linklabPath() + " -runtime=none -entry=run " + Obj + " " + Stubs);
    EXPECT_EQ(R.status, Native.status) << Flags << "\n" << R.output;
  }
}

// .drectve: want() runs impl_fn(); forced_sym must be found though unused.
TEST(COFFLink, DirectivesResolveAsInLLVMJITLink) {
  TempDir D;
  std::string Obj = compile(D, sourceDir() + "/tests/inputs/coff/directives.c", Triple_, "-O1 -ffreestanding", "d.o");
  std::string Forced = assemble(D, ".data\n.globl forced_sym\nforced_sym: .long 0\n", Triple_, "forced.o");
  auto Ref = runCommand("llvm-jitlink-22 -entry=run " + Obj + " " + Forced);
  auto R = runCommand(linklabPath() + " -runtime=none -entry=run " + Obj + " " + Forced);
  EXPECT_EQ(Ref.status, 10) << Ref.output; // impl_fn() + 3
  EXPECT_EQ(R.status, Ref.status) << R.output;
  auto Missing = runCommand(linklabPath() + " -runtime=none -entry=run " + Obj);
  EXPECT_NE(Missing.output.find("forced_sym"), std::string::npos) << Missing.output;
  EXPECT_NE(Missing.status, 0);
}

// The executor's C runtimes are ELF archives for Linux: a COFF program must
// say so rather than link against them.
TEST(COFFLink, DefaultRuntimeIsRefused) {
  TempDir D;
  std::string Obj = compile(D, freestandingSource("util"), Triple_, "-O1 -ffreestanding", "util.o");
  auto R = runCommand(linklabPath() + " -entry=run " + Obj);
  EXPECT_EQ(R.status, 1);
  EXPECT_NE(R.output.find("no C runtime is known for x86_64-pc-windows-msvc; use -runtime=none"), std::string::npos)
      << R.output;
}

// Two objects with the same selectany COMDAT link (one copy wins); a weak
// definition yields to a strong one.
TEST(COFFLink, SelectAnyAndWeakDefinitionsResolve) {
  TempDir D;
  std::string A = D.write("a.c", "__declspec(selectany) int shared = 7;\n"
                                 "__attribute__((weak)) int pick(void) { return 1; }\n"
                                 "int first(void) { return shared + pick(); }\n");
  std::string B = D.write("b.c", "__declspec(selectany) int shared = 7;\n"
                                 "int pick(void) { return 40; }\n"
                                 "int second(void) { return shared; }\n"
                                 "int first(void);\n"
                                 "int run(void) { return first() + second(); }\n");
  std::string AO = compile(D, A, Triple_, "-O1 -ffreestanding", "a.o");
  std::string BO = compile(D, B, Triple_, "-O1 -ffreestanding", "b.o");
  auto R = runCommand(linklabPath() + " -runtime=none -entry=run " + AO + " " + BO);
  EXPECT_EQ(R.status, 54) << R.output; // 7 + 40 + 7
  EXPECT_EQ(runCommand("llvm-jitlink-22 -entry=run " + AO + " " + BO).status, 54);
}

Error linkBytes(std::shared_ptr<const std::vector<char>> Bytes) {
  SlabMemoryManager MM(0x10000, 4096, 1 << 24);
  Session S(Triple(), MM);
  S.setPhonyExternals(true);
  auto K = S.addObject("bad.o", std::move(Bytes));
  if (!K)
    return K.takeError();
  std::optional<Error> Result;
  S.linkAll([&](Error E) { Result = std::move(E); });
  EXPECT_TRUE(Result.has_value());
  return Result ? std::move(*Result) : makeError("link did not finish");
}

std::vector<char> validObject(const TempDir &D) {
  return *readBytes(compile(D, sourceDir() + "/tests/inputs/coff/features.c", Triple_, "-O1", "features.o"));
}

TEST(COFFBadInput, EveryTruncationIsAnErrorNotACrash) {
  TempDir D;
  std::vector<char> Obj = validObject(D);
  for (size_t Len = 2; Len < Obj.size(); Len += (Len < 128 ? 1 : 5)) {
    auto Cut = std::make_shared<std::vector<char>>(Obj.begin(), Obj.begin() + Len);
    Error E = linkBytes(Cut);
    EXPECT_TRUE(bool(E)) << "truncated to " << Len << " bytes linked";
    EXPECT_TRUE(E.message().starts_with("bad.o: ")) << E.message();
  }
  Error Header = linkBytes(std::make_shared<std::vector<char>>(Obj.begin(), Obj.begin() + 12));
  EXPECT_EQ(Header.message(), "bad.o: truncated COFF header (12 bytes, need 20)");
}

TEST(COFFBadInput, MutatedObjectsNeverCrash) {
  TempDir D;
  std::vector<char> Obj = validObject(D);
  std::mt19937 Rng(4321);
  int Errors = 0;
  for (int Iter = 0; Iter < 2000; ++Iter) {
    auto M = std::make_shared<std::vector<char>>(Obj);
    int Flips = 1 + int(Rng() % 4);
    for (int F = 0; F < Flips; ++F)
      (*M)[2 + Rng() % (M->size() - 2)] = char(Rng()); // keep the machine field: still COFF
    if (linkBytes(M))
      ++Errors;
  }
  EXPECT_GT(Errors, 0);
}

} // namespace
