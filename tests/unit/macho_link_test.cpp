// MachO x86-64 and arm64 objects held against llvm-jitlink-22: a multi-file
// freestanding C program compiled at test time, each object linked alone at
// a fixed slab address, gives the same graph after fixups (blocks, every
// edge, every symbol line; GOT entries compared by target since llvm-jitlink
// numbers them in hash order); the whole program's run in the executor is
// tests/lit/runtime/macho_freestanding_run.test. Malformed MachO input is
// an error, never a crash (the yaml corpus in tests/inputs/bad covers the
// named defects).
#include "test_support.h"

#include "link/slab_memory_manager.h"
#include "session/session.h"

#include <random>
#include <sstream>

using namespace linklab;
using namespace linklab::test;

namespace {

const char *const ProgramFiles[] = {"shapes", "util", "main"};

struct MachOCase {
  const char *triple, *flags;
};

class MachOVersusLLVMJITLink : public ::testing::TestWithParam<MachOCase> {};

TEST_P(MachOVersusLLVMJITLink, ProgramObjectsLinkIdentically) {
  TempDir D;
  size_t Edges = 0;
  for (const char *File : ProgramFiles) {
    std::string Obj = compile(D, freestandingSource(File), GetParam().triple,
                              std::string(GetParam().flags) + " -ffreestanding", std::string(File) + ".o");
    std::string Args =
        " -noexec -no-process-syms -phony-externals -show-graphs=.* -slab-allocate=10Mb -slab-address=0x100000 "
        "-slab-page-size=4096 -entry=_run " +
        Obj;
    auto Ours = runCommand(linklabPath() + Args);
    auto Ref = runCommand("llvm-jitlink-22" + Args);
    ASSERT_EQ(Ours.status, 0) << Ours.output;
    ASSERT_EQ(Ref.status, 0) << Ref.output;
    NormalizedDump O = normalizeGraphDump(Ours.output), R = normalizeGraphDump(Ref.output);
    Edges += R.edges.size();
    EXPECT_EQ(diffSets(R.blocks, O.blocks), "") << File << " " << GetParam().triple << " " << GetParam().flags;
    EXPECT_EQ(diffSets(R.edges, O.edges), "") << File << " " << GetParam().triple << " " << GetParam().flags;
    EXPECT_EQ(diffSets(symbolLines(Ref.output), symbolLines(Ours.output)), "")
        << File << " " << GetParam().triple << " " << GetParam().flags;
  }
  EXPECT_GT(Edges, 10u);
}

INSTANTIATE_TEST_SUITE_P(Targets, MachOVersusLLVMJITLink,
                         ::testing::Values(MachOCase{"arm64-apple-macos", "-O0"}, MachOCase{"arm64-apple-macos", "-O2"},
                                           MachOCase{"x86_64-apple-macos", "-O0"},
                                           MachOCase{"x86_64-apple-macos", "-O2"}),
                         [](const auto &I) {
                           return std::string(I.param.triple).substr(0, std::string(I.param.triple).find('-')) +
                                  (I.param.flags + 1);
                         });

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

std::vector<char> validObject(const TempDir &D, const char *Triple) {
  return *readBytes(compile(D, freestandingSource("main"), Triple, "-O1 -ffreestanding", std::string(Triple) + ".o"));
}

TEST(MachOBadInput, EveryTruncationIsAnErrorNotACrash) {
  TempDir D;
  for (const char *Triple : {"arm64-apple-macos", "x86_64-apple-macos"}) {
    std::vector<char> Obj = validObject(D, Triple);
    for (size_t Len = 0; Len < Obj.size(); Len += (Len < 128 ? 1 : 5)) {
      auto Cut = std::make_shared<std::vector<char>>(Obj.begin(), Obj.begin() + Len);
      Error E = linkBytes(Cut);
      EXPECT_TRUE(bool(E)) << Triple << " truncated to " << Len << " bytes linked";
      EXPECT_TRUE(E.message().starts_with("bad.o: ")) << E.message();
    }
    Error Header = linkBytes(std::make_shared<std::vector<char>>(Obj.begin(), Obj.begin() + 20));
    EXPECT_EQ(Header.message(), "bad.o: truncated MachO header (20 bytes, need 32)");
  }
}

// Random byte flips: the reader and linker return (error or success), never
// crash or hang.
TEST(MachOBadInput, MutatedObjectsNeverCrash) {
  TempDir D;
  for (const char *Triple : {"arm64-apple-macos", "x86_64-apple-macos"}) {
    std::vector<char> Obj = validObject(D, Triple);
    std::mt19937 Rng(1234);
    int Errors = 0;
    for (int Iter = 0; Iter < 2000; ++Iter) {
      auto M = std::make_shared<std::vector<char>>(Obj);
      int Flips = 1 + int(Rng() % 4);
      for (int F = 0; F < Flips; ++F)
        (*M)[Rng() % M->size()] = char(Rng());
      if (linkBytes(M))
        ++Errors;
    }
    EXPECT_GT(Errors, 0) << Triple;
  }
}

} // namespace
