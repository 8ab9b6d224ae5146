// One spelling per target: the registry row's arch name (what targets() and
// -triple use) and its full triple are what inspection, sessions and errors
// report; the graph keeps llvm-jitlink's own spelling for its dump.
#include "api/json_export.h"
#include "target/target.h"
#include "target/triple.h"
#include "test_support.h"

#include <gtest/gtest.h>

using namespace linklab;
using namespace linklab::test;

namespace {

// The value of a top-level string field of a flat JSON object.
std::string field(const std::string &Json, const std::string &Key) {
  size_t At = Json.find("\"" + Key + "\":\"");
  if (At == std::string::npos)
    return "<missing>";
  At += Key.size() + 4;
  return Json.substr(At, Json.find('"', At) - At);
}

TEST(TripleSpelling, EveryPairsTripleParsesBackToItsRow) {
  for (const TargetInfo *T : allTargets()) {
    Triple TT = Triple::parse(T->triple);
    EXPECT_EQ(findTarget(TT), T) << T->triple;
    EXPECT_EQ(fullTriple(TT), T->triple);
    // The graph's llvm-jitlink spelling reports as the same full triple.
    EXPECT_EQ(fullTriple(targetTriple(*T)), T->triple) << targetTriple(*T).str;
  }
}

TEST(TripleSpelling, OtherSpellingsReportInFull) {
  EXPECT_EQ(fullTriple(Triple::parse("x86_64--")), "x86_64-unknown-linux-gnu");
  EXPECT_EQ(fullTriple(Triple::parse("x86_64--freebsd")), "x86_64-unknown-freebsd");
  EXPECT_EQ(fullTriple(Triple::parse("amd64-pc-solaris")), "x86_64-pc-solaris");
  EXPECT_EQ(fullTriple(Triple::parse("aarch64-linux-gnu")), "aarch64-unknown-linux-gnu");
  EXPECT_EQ(fullTriple(Triple::parse("armv7a-linux-gnueabihf")), "armv7-unknown-linux-gnueabihf");
  EXPECT_EQ(fullTriple(Triple::parse("arm64-apple-darwin")), "arm64-apple-macosx");
  EXPECT_EQ(fullTriple(Triple::parse("x86_64---coff")), "x86_64-pc-windows-msvc");
  EXPECT_EQ(fullTriple(Triple::parse("sparc-sun-solaris")), "sparc-sun-solaris"); // no row: as given
}

// inspect's arch is a registry row's name, its triple that row's full triple;
// the ELF header's description of the machine is machineName.
TEST(TripleSpelling, InspectReportsTheRegistrysSpelling) {
  TempDir D;
  const struct {
    const char *triple, *arch, *reported, *machineName;
  } Cases[] = {{"x86_64-linux-gnu", "x86_64", "x86_64-unknown-linux-gnu", "x86-64"},
               {"aarch64-linux-gnu", "aarch64", "aarch64-unknown-linux-gnu", "AArch64"},
               {"riscv64-linux-gnu", "riscv64", "riscv64-unknown-linux-gnu", "RISC-V"},
               {"x86_64-unknown-freebsd", "x86_64", "x86_64-unknown-freebsd", "x86-64"}};
  for (auto &C : Cases) {
    std::string Obj = assemble(D, "  .text\n  .globl f\nf:\n  nop\n", C.triple, std::string(C.triple) + ".o");
    auto Bytes = readBytes(Obj);
    auto J = api::inspectObjectJson("t.o", {Bytes->data(), Bytes->size()});
    ASSERT_TRUE(bool(J)) << J.takeError().message();
    EXPECT_EQ(field(*J, "arch"), C.arch) << *J;
    const TargetInfo *T = findTarget(Triple::parse(field(*J, "triple")));
    ASSERT_NE(T, nullptr) << *J;
    EXPECT_EQ(findArchRow(field(*J, "arch")), &T->arch);
    EXPECT_EQ(field(*J, "triple"), C.reported);
    EXPECT_EQ(field(*J, "machineName"), C.machineName);
  }
}

} // namespace
