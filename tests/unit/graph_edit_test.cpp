// api::GraphEditor, the checked graph editing behind the wasm package's JS
// passes (Graph.addEdge, removeBlock, ...), and the link phases they run at.
#include "api/graph_edit.h"
#include "arch/aarch64.h"
#include "arch/riscv64.h"
#include "arch/x86_64.h"
#include "target/target.h"

#include <gtest/gtest.h>

using namespace linklab;
using namespace linklab::api;

namespace {

struct GraphEditFixture : ::testing::Test {
  LinkGraph G{"edit.o", Triple::parse("x86_64-unknown-linux-gnu"), x86_64::edgeKindName};
  Section &Text = G.createSection(".text", MemProt::Read | MemProt::Exec);
  const char Code[8] = {char(0xe8), 0, 0, 0, 0, char(0xc3), char(0x90), char(0x90)};
};

template <typename T> T value(Expected<T> E) {
  EXPECT_TRUE(bool(E)) << (E ? "" : E.takeError().message());
  return E ? *E : T{};
}
std::string failure(Error E) { return E ? E.message() : "(no error)"; }
template <typename T> std::string failure(Expected<T> E) { return E ? "(no error)" : E.takeError().message(); }

TEST(LinkPhases, NamesInLinkOrderAndParsing) {
  std::vector<std::string> Names(phaseNames().begin(), phaseNames().end());
  EXPECT_EQ(Names, (std::vector<std::string>{"pre-prune", "prune", "post-prune", "post-allocation", "pre-fixup",
                                             "post-fixup"}));
  EXPECT_EQ(value(parsePhase("post-allocation")), LinkPhase::PostAllocation);
  EXPECT_EQ(failure(parsePhase("after-fixup")),
            "unknown phase 'after-fixup' (phases: pre-prune, prune, post-prune, post-allocation, pre-fixup, "
            "post-fixup)");
}

TEST(LinkPhases, PruneRunsBeforeTheTargetsPostPrunePasses) {
  PassConfiguration C;
  std::vector<std::string> Ran;
  auto Pass = [&](std::string N) { return [&Ran, N](LinkGraph &) { return Ran.push_back(N), Error::success(); }; };
  C.postPrunePasses.push_back(Pass("GOT/PLT"));
  addPassAt(C, LinkPhase::PostPrune, Pass("post-prune"));
  addPassAt(C, LinkPhase::Prune, Pass("prune"));
  addPassAt(C, LinkPhase::PostFixup, Pass("post-fixup"));
  LinkGraph G{"x.o", Triple::parse("x86_64-unknown-linux-gnu"), x86_64::edgeKindName};
  for (auto &P : C.postPrunePasses)
    EXPECT_FALSE(P(G));
  EXPECT_EQ(Ran, (std::vector<std::string>{"prune", "GOT/PLT", "post-prune"}));
  EXPECT_EQ(C.postFixupPasses.size(), 1u);
}

TEST_F(GraphEditFixture, BuildsBlocksSymbolsAndEdgesByName) {
  GraphEditor Ed(G, LinkPhase::PrePrune);
  ASSERT_FALSE(Ed.createSection(".note.x", "R--"));
  uint32_t B = value(Ed.addContentBlock(".text", {Code, 8}, 16));
  uint32_t F = value(Ed.addDefinedSymbol(B, 0, "f", 6, "strong", "default", true, true));
  uint32_t Ext = value(Ed.addExternalSymbol("printf", false));
  EXPECT_EQ(value(Ed.addEdge(B, "BranchPCRel32", 1, Ext, 0)), 0u);
  ASSERT_FALSE(Ed.setEdgeKind(B, 0, "Delta32"));
  ASSERT_FALSE(Ed.setEdgeAddend(B, 0, -4));
  ASSERT_FALSE(Ed.setEdgeTarget(B, 0, F));
  const Block &Blk = *Text.blocks.back();
  ASSERT_EQ(Blk.edges.size(), 1u);
  EXPECT_STREQ(G.edgeKindName(Blk.edges[0].kind), "Delta32");
  EXPECT_EQ(Blk.edges[0].addend, -4);
  EXPECT_EQ(Blk.edges[0].target->name, "f");
  EXPECT_NE(Ed.data(false).find("\"kind\":\"Delta32\",\"width\":4,"), std::string::npos);
  auto Kinds = Ed.edgeKindNames();
  EXPECT_EQ(Kinds.front(), "Keep-Alive");
  EXPECT_NE(std::find(Kinds.begin(), Kinds.end(), "PCRel32GOTLoadREXRelaxable"), Kinds.end());
  ASSERT_FALSE(Ed.removeEdge(B, 0));
  ASSERT_FALSE(Ed.removeSymbol(Ext));
  EXPECT_TRUE(G.externalSymbols().empty());
}

TEST_F(GraphEditFixture, RefusesWhatWouldBreakTheGraph) {
  GraphEditor Ed(G, LinkPhase::PrePrune);
  uint32_t B = value(Ed.addContentBlock(".text", {Code, 8}, 1));
  uint32_t F = value(Ed.addDefinedSymbol(B, 0, "f", 6, "strong", "default", true, false));
  EXPECT_EQ(failure(Ed.addEdge(B, "Branch26PCRel", 1, F, 0)),
            "graph edit.o (x86_64-unknown-linux-gnu): 'Branch26PCRel' is not an edge kind of this target");
  EXPECT_EQ(failure(Ed.addEdge(B, "Delta32", 8, F, 0)), "addEdge Delta32: offset 8 is outside block 0 (size 0x8)");
  EXPECT_EQ(failure(Ed.addEdge(B, "Delta32", -1, F, 0)), "addEdge Delta32: offset -1 is outside block 0 (size 0x8)");
  EXPECT_EQ(failure(Ed.addEdge(7, "Delta32", 0, F, 0)),
            "graph edit.o: no block with id 7 (ids come from data() of this view)");
  EXPECT_EQ(failure(Ed.addEdge(B, "Delta32", 0, 9, 0)),
            "graph edit.o: no symbol with id 9 (ids come from data() of this view)");
  EXPECT_EQ(failure(Ed.setEdgeAddend(B, 3, 0)), "graph edit.o: block 0 has 0 edges, no edge 3");
  EXPECT_EQ(failure(Ed.addDefinedSymbol(B, 9, "g", 0, "strong", "default", false, false)),
            "addDefinedSymbol g: offset 9 is outside block 0 (size 0x8)");
  EXPECT_EQ(failure(Ed.addDefinedSymbol(B, 0, "g", 0, "common", "default", false, false)),
            "addDefinedSymbol g: linkage 'common' is not strong or weak");
  EXPECT_EQ(failure(Ed.addAbsoluteSymbol("a", 1, "global")), "scope 'global' is not one of default, hidden, local");
  EXPECT_EQ(failure(Ed.addExternalSymbol("", false)), "addExternalSymbol: an external symbol needs a name");
  EXPECT_EQ(failure(Ed.createSection(".text", "R-X")), "createSection: section .text already exists");
  EXPECT_EQ(failure(Ed.createSection(".y", "rwx")), "createSection .y: protection 'rwx' is not like \"R-X\"");
  EXPECT_EQ(failure(Ed.addContentBlock(".text", {Code, 8}, 3)), "addContentBlock: alignment 3 is not a power of two");
  EXPECT_EQ(failure(Ed.addContentBlock(".nope", {Code, 8}, 1)), "addContentBlock: no section named .nope");
  ASSERT_FALSE(Ed.addEdge(B, "Delta32", 4, F, 0).takeError());
  EXPECT_EQ(failure(Ed.removeSymbol(F)),
            "removeSymbol: symbol 0 (f) is still the target of an edge in block 0 of section .text");
  EXPECT_EQ(failure(Ed.removeBlock(B)), "removeBlock: block 0 still defines symbol 0 (f); remove its symbols first");
  EXPECT_EQ(failure(Ed.setBlockContent(B, {Code, 4})),
            "setBlockContent: block 0 has an edge at offset 0x4 beyond the new size 0x4");
  uint32_t Anon = value(Ed.addDefinedSymbol(B, 6, "", 0, "strong", "local", false, false));
  EXPECT_EQ(failure(Ed.makeExternal(Anon)), "makeExternal: symbol 1 is anonymous");
}

TEST_F(GraphEditFixture, LayoutEditsEndWhenBlocksHaveAddresses) {
  GraphEditor Early(G, LinkPhase::PrePrune);
  uint32_t B = value(Early.addContentBlock(".text", {Code, 8}, 1));
  uint32_t F = value(Early.addDefinedSymbol(B, 0, "f", 6, "weak", "default", true, false));
  // Same-size content and liveness may still change; layout may not.
  GraphEditor Late(G, LinkPhase::PostAllocation);
  Late.data(false); // gives Late its own IDs: the one block and symbol are 0 again
  EXPECT_EQ(failure(Late.createSection(".late", "R--")),
            "createSection: not allowed at post-allocation: blocks already have addresses");
  EXPECT_EQ(failure(Late.addContentBlock(".text", {Code, 8}, 1)),
            "addContentBlock: not allowed at post-allocation: blocks already have addresses");
  EXPECT_EQ(failure(Late.removeBlock(B)), "removeBlock: not allowed at post-allocation: blocks already have addresses");
  EXPECT_EQ(failure(Late.makeExternal(F)),
            "makeExternal: not allowed at post-allocation: blocks already have addresses");
  EXPECT_EQ(failure(Late.setBlockContent(B, {Code, 4})),
            "setBlockContent: block 0 has its address and size; the new content must keep 0x8 bytes");
  EXPECT_FALSE(Late.setBlockContent(B, {Code, 8}));
  EXPECT_FALSE(Late.setLive(F, true));
  for (Symbol *S : Text.symbols)
    EXPECT_TRUE(S->live);
}

// The bytes each fixup writes, from the arch's edge-kind list, through the
// target row (what graphToJson reports and the page's hex view marks).
TEST(EdgeKindWidths, FromTheTargetRows) {
  auto Width = [](const char *TT, EdgeKind K) { return findTarget(Triple::parse(TT))->arch.edgeKindWidth(K); };
  EXPECT_EQ(Width("x86_64-unknown-linux-gnu", x86_64::Pointer64), 8u);
  EXPECT_EQ(Width("x86_64-unknown-linux-gnu", x86_64::Delta8), 1u);
  EXPECT_EQ(Width("x86_64-unknown-linux-gnu", x86_64::PCRel32GOTLoadREXRelaxable), 4u);
  EXPECT_EQ(Width("aarch64-unknown-linux-gnu", aarch64::Branch26PCRel), 4u);
  EXPECT_EQ(Width("aarch64-unknown-linux-gnu", aarch64::Pointer16), 2u);
  EXPECT_EQ(Width("riscv64-unknown-linux-gnu", riscv64::R_RISCV_CALL_PLT), 8u);
  EXPECT_EQ(Width("riscv64-unknown-linux-gnu", riscv64::R_RISCV_RVC_JUMP), 2u);
  EXPECT_EQ(Width("riscv64-unknown-linux-gnu", riscv64::R_RISCV_TPREL_ADD), 0u);
  EXPECT_EQ(Width("riscv64-unknown-linux-gnu", edge::KeepAlive), 0u);
}

} // namespace
