// x86-64 links held against llvm-jitlink-22: the same objects, linked at the
// same slab address, give the same graph after fixups (block addresses,
// sizes, and every edge's kind, target and addend). GOT entries and external
// symbols are compared by what they point to, since llvm-jitlink orders them
// by hash.
#include "test_support.h"

#include <map>
#include <regex>
#include <set>
#include <sstream>

using namespace linklab::test;

namespace {

class X86_64VersusLLVMJITLink : public ::testing::TestWithParam<const char *> {};

TEST_P(X86_64VersusLLVMJITLink, InventoryObjectsLinkIdentically) {
  TempDir D;
  // main.c is left out: its constructor's .init_array, which linklab keeps
  // and llvm-jitlink's platform takes out of the graph, shifts its RW layout.
  const std::pair<const char *, const char *> Objects[] = {
      {"table", "inventory_add"}, {"sort", "inventory_sort"}, {"report", "format_item"}};
  for (auto [File, Entry] : Objects) {
    std::string Obj = compile(D, sourceDir() + "/tests/inputs/programs/inventory/" + File + ".c", "x86_64-linux-gnu",
                              std::string(GetParam()) + " -fcommon", std::string(File) + ".o");
    std::string Args = std::string(" -noexec -no-process-syms -phony-externals -show-graphs=.* -slab-allocate=10Mb ") +
                       "-slab-address=0x100000 -slab-page-size=4096 -entry=" + Entry + " " + Obj;
    auto Ours = runCommand(linklabPath() + Args);
    auto Ref = runCommand("llvm-jitlink-22" + Args);
    ASSERT_EQ(Ours.status, 0) << Ours.output;
    ASSERT_EQ(Ref.status, 0) << Ref.output;
    NormalizedDump O = normalizeGraphDump(Ours.output), R = normalizeGraphDump(Ref.output);
    EXPECT_GT(R.edges.size(), 3u);
    EXPECT_EQ(diffSets(R.blocks, O.blocks), "") << File << " " << GetParam();
    EXPECT_EQ(diffSets(R.edges, O.edges), "") << File << " " << GetParam();
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, X86_64VersusLLVMJITLink,
                         ::testing::Values("-O0 -fPIC", "-O2 -fPIC", "-O0 -fno-pic", "-O2 -fno-pic"));

// The whole program links in one session in every mode.
TEST(X86_64Link, MultiFileProgramLinksInEveryMode) {
  for (const char *Flags : {"-O0 -fPIC", "-O2 -fPIC", "-O0 -fno-pic", "-O2 -fno-pic"}) {
    TempDir D;
    std::string Objs;
    for (const char *F : {"table", "sort", "report", "main"})
      Objs += " " + compile(D, sourceDir() + "/tests/inputs/programs/inventory/" + F + ".c", "x86_64-linux-gnu", Flags,
                            std::string(F) + ".o");
    auto R = runCommand(linklabPath() + " -noexec -no-process-syms -phony-externals -show-addrs" + Objs);
    EXPECT_EQ(R.status, 0) << Flags << "\n" << R.output;
    EXPECT_NE(R.output.find("inventory_add"), std::string::npos);
  }
}

// A weak definition yields to a strong one from another object; duplicate
// strong definitions are an error naming both objects.
TEST(X86_64Link, WeakAndDuplicateDefinitions) {
  TempDir D;
  std::string Weak = D.write("weak.c", "__attribute__((weak)) int value(void) { return 1; }\n"
                                       "int main(void) { return value(); }\n");
  std::string Strong = D.write("strong.c", "int value(void) { return 2; }\n");
  std::string W = compile(D, Weak, "x86_64-linux-gnu", "-O1", "weak.o");
  std::string S = compile(D, Strong, "x86_64-linux-gnu", "-O1", "strong.o");
  std::string S2 = compile(D, Strong, "x86_64-linux-gnu", "-O1", "strong2.o");
  auto R = runCommand(linklabPath() + " -noexec -no-process-syms -show-addrs " + W + " " + S);
  ASSERT_EQ(R.status, 0) << R.output;
  // value resolves into strong.o: weak.o's definition became a reference.
  EXPECT_NE(R.output.find("File \"" + S + "\":"), std::string::npos) << R.output;
  auto Dup = runCommand(linklabPath() + " -noexec -no-process-syms " + W + " " + S + " " + S2);
  EXPECT_EQ(Dup.status, 1);
  EXPECT_NE(Dup.output.find("duplicate definition of symbol 'value' (in " + S + " and " + S2 + ")"), std::string::npos)
      << Dup.output;
}

} // namespace

namespace {

// Debian's libsqlite3.a, as loose objects: the entry drives which of them link.
TEST(X86_64Link, SqliteObjectsLinkFromSqlite3Open) {
  TempDir D;
  auto X = runCommand("cd '" + D.Path + "' && ar x /usr/lib/x86_64-linux-gnu/libsqlite3.a && ls *.o | wc -l");
  ASSERT_EQ(X.status, 0) << X.output;
  EXPECT_GT(std::stoi(X.output), 50);
  auto R = runCommand("cd '" + D.Path + "' && " + linklabPath() +
                      " -noexec -no-process-syms -entry=sqlite3_open -phony-externals -show-times *.o");
  EXPECT_EQ(R.status, 0) << R.output;
  EXPECT_NE(R.output.find("linklab timings:"), std::string::npos);
  // Without -phony-externals the libc symbols it needs are reported by name.
  auto Missing =
      runCommand("cd '" + D.Path + "' && " + linklabPath() + " -noexec -no-process-syms -entry=sqlite3_open *.o");
  EXPECT_EQ(Missing.status, 1);
  EXPECT_NE(Missing.output.find("Symbols not found: ["), std::string::npos) << Missing.output;
}

} // namespace

namespace {

// Every range-checked x86-64 kind at the last in-range and the first
// out-of-range value; the error names object, section, offset, kind, target,
// the value and the range.
struct RangeCase {
  const char *name;
  const char *insn; // uses `target`
  const char *kind;
  unsigned offset; // of the fixup in .text
  uint64_t lastOk; // absolute address of target that still fits
  uint64_t firstBad;
  const char *badValue, *range;
};

// The code sits at 0x10000000 (-slab-address); PC-relative fields are
// measured from the end of the 4-byte field at 0x10000001 + 4.
const RangeCase RangeCases[] = {
    {"Pointer32", "movl $target, %eax", "Pointer32", 1, 0xffffffff, 0x100000000, "0x100000000", "[0x0, 0xffffffff]"},
    {"Pointer32Signed", "movq $target, %rax", "Pointer32Signed", 3, 0x7fffffff, 0x80000000, "0x80000000",
     "[-0x80000000, 0x7fffffff]"},
    {"Pointer16", "movw $target, %ax", "Pointer16", 2, 0xffff, 0x10000, "0x10000", "[0x0, 0xffff]"},
    {"Pointer8", "movb $target, %al", "Pointer8", 1, 0xff, 0x100, "0x100", "[0x0, 0xff]"},
    {"Delta32", "movl target(%rip), %eax", "Delta32", 2, 0x10000006ull + 0x7fffffff, 0x10000006ull + 0x80000000,
     "0x80000000", "[-0x80000000, 0x7fffffff]"},
};

void PrintTo(const RangeCase &C, std::ostream *OS) { *OS << C.name; }

class X86_64Range : public ::testing::TestWithParam<RangeCase> {};

TEST_P(X86_64Range, LastInRangeLinksFirstOutOfRangeFails) {
  const RangeCase &C = GetParam();
  TempDir D;
  std::string Obj = assemble(D, std::string("  .text\n  .globl main\nmain:\n  ") + C.insn + "\n  ret\n",
                             "x86_64-linux-gnu", "range.o");
  auto Link = [&](uint64_t Target) {
    char Abs[64];
    snprintf(Abs, sizeof Abs, " -abs target=0x%llx ", (unsigned long long)Target);
    return runCommand(linklabPath() + " -noexec -no-process-syms -slab-address=0x10000000 -slab-page-size=4096" + Abs +
                      Obj);
  };
  auto Ok = Link(C.lastOk);
  EXPECT_EQ(Ok.status, 0) << Ok.output;
  auto Bad = Link(C.firstBad);
  EXPECT_EQ(Bad.status, 1);
  std::string Want = std::string(": .text+0x") + std::to_string(C.offset) + ": " + C.kind + " against target: value " +
                     C.badValue + " out of range " + C.range;
  EXPECT_NE(Bad.output.find(Want), std::string::npos) << "want: " << Want << "\n got: " << Bad.output;
}

// Calls to symbols outside the graph go through a stub, so a target beyond
// rel32 reach still links: only the stub's GOT entry holds the far address.
TEST(X86_64Link, FarCallsGoThroughStubs) {
  TempDir D;
  std::string Obj = assemble(D, "  .text\n  .globl main\nmain:\n  call far_fn\n  ret\n", "x86_64-linux-gnu", "far.o");
  auto Near = runCommand(linklabPath() + " -noexec -no-process-syms -show-graphs=.* -abs far_fn=0x10002000 " + Obj);
  EXPECT_NE(Near.output.find("kind = BranchPCRel32, target = far_fn"), std::string::npos) << Near.output;
  auto Far = runCommand(linklabPath() + " -noexec -no-process-syms -show-graphs=.* -abs far_fn=0x7000000000 " + Obj);
  EXPECT_EQ(Far.status, 0) << Far.output;
  EXPECT_NE(Far.output.find("kind = BranchPCRel32ToPtrJumpStubBypassable"), std::string::npos) << Far.output;
}

INSTANTIATE_TEST_SUITE_P(Kinds, X86_64Range, ::testing::ValuesIn(RangeCases),
                         [](const ::testing::TestParamInfo<RangeCase> &I) { return std::string(I.param.name); });

} // namespace
