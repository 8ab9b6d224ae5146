// COFF x86-64 objects held against llvm-jitlink-22:
// the freestanding multi-file C program and a file of COFF features (a
// selectany COMDAT, a weak external, thread-local data, .pdata/.xdata),
// compiled at test time, each object linked alone at a fixed slab address,
// give the same graph after fixups (blocks, every edge, every symbol line);
// C++ objects (COMDAT inline functions, vtables, string literals, associative
// .pdata) give the same blocks, edges and symbols up to the order of blocks
// of one size, which llvm-jitlink lays out in hash order. Runs in the
// executor and symbol resolution are tests/lit/runtime/coff_*.test.
// Malformed COFF input is an error, never a crash (the yaml corpus in
// tests/inputs/bad covers the named defects).
#include "test_support.h"

#include "link/slab_memory_manager.h"
#include "session/session.h"

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
                        std::stoull(M[1], nullptr, 16),
                        std::stoull(M[2], nullptr, 16),
                        {},
                        {},
                        {}});
    else if (Blocks.empty())
      continue;
    else if (std::regex_match(Line, M, EdgeRe)) {
      std::string Target = M[3];
      std::smatch A;
      if (std::regex_match(Target, A, AnonRe))
        Blocks.back().anonEdges.push_back({std::stoull(A[1], nullptr, 16) + std::stoull(A[2], nullptr, 16),
                                           std::string(M[1]) + " " + std::string(M[2])});
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
  const std::pair<std::string, const char *> Sources[] = {{freestandingSource("shapes"), "run"},
                                                          {freestandingSource("util"), "run"},
                                                          {freestandingSource("main"), "run"},
                                                          {sourceDir() + "/tests/inputs/coff/features.c", "features"},
                                                          {sourceDir() + "/tests/inputs/coff/directives.c", "run"}};
  int N = 0;
  for (auto &[Src, Entry] : Sources) {
    std::string Obj =
        compile(D, Src, Triple_, std::string(GetParam()) + " -ffreestanding", "o" + std::to_string(N++) + ".o");
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
