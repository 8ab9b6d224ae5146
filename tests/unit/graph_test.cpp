// LinkGraph operations through the public interface.
#include "graph/link_graph.h"
#include "link/linker.h"

#include <gtest/gtest.h>

using namespace linklab;

namespace {

const char *noKinds(EdgeKind) { return nullptr; }

struct GraphFixture : ::testing::Test {
  LinkGraph G{"test.o", Triple::parse("x86_64-unknown-linux-gnu"), noKinds};
  Section &Text = G.createSection(".text", MemProt::Read | MemProt::Exec);
  Section &Data = G.createSection(".data", MemProt::Read | MemProt::Write);
  const char Bytes[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
};

TEST_F(GraphFixture, BasicProperties) {
  EXPECT_EQ(G.name(), "test.o");
  EXPECT_EQ(G.triple().arch, Arch::X86_64);
  EXPECT_EQ(G.pointerSize(), 8u);
  EXPECT_EQ(G.findSectionByName(".text"), &Text);
  EXPECT_EQ(G.findSectionByName(".bss"), nullptr);
  EXPECT_EQ(G.sections().size(), 2u);
  EXPECT_STREQ(G.edgeKindName(edge::KeepAlive), "Keep-Alive");
  EXPECT_STREQ(G.edgeKindName(77), "<Unrecognized edge kind>");
}

TEST_F(GraphFixture, BlocksAndSymbols) {
  Block &B = G.createContentBlock(Text, {Bytes, 16}, 0x1000, 16, 0);
  Block &Z = G.createZeroFillBlock(Data, 64, 0x2000, 8, 0);
  EXPECT_FALSE(B.isZeroFill());
  EXPECT_TRUE(Z.isZeroFill());
  EXPECT_EQ(Z.content().size(), 0u);
  Symbol &F = G.addDefinedSymbol(B, 4, "f", 8, Linkage::Strong, Scope::Default, true, false);
  Symbol &A = G.addAnonymousSymbol(Z, 0, 64, false, false);
  Symbol &Ext = G.addExternalSymbol("printf", 0, false);
  Symbol &Abs = G.addAbsoluteSymbol("answer", 42, 0, Linkage::Strong, Scope::Local, true);
  Symbol &Com = G.addCommonSymbol("buf", Scope::Default, Data, 32, 16, false);
  EXPECT_EQ(F.address(), 0x1004u);
  EXPECT_TRUE(F.isDefined());
  EXPECT_FALSE(A.hasName());
  EXPECT_TRUE(Ext.isExternal());
  EXPECT_TRUE(Abs.isAbsolute());
  EXPECT_EQ(Abs.address(), 42u);
  EXPECT_EQ(Com.linkage, Linkage::Weak);
  EXPECT_TRUE(Com.block().isZeroFill());
  EXPECT_EQ(Com.block().alignment, 16u);
  EXPECT_EQ(G.definedSymbols().size(), 3u);
  EXPECT_EQ(G.externalSymbols().size(), 1u);
  EXPECT_EQ(G.absoluteSymbols().size(), 1u);
  EXPECT_EQ(G.blockCount(), 3u);
}

TEST_F(GraphFixture, MakeExternalAndDefinedRoundTrip) {
  Block &B = G.createContentBlock(Text, {Bytes, 16}, 0, 1, 0);
  Symbol &S = G.addDefinedSymbol(B, 0, "weak_fn", 4, Linkage::Weak, Scope::Default, true, true);
  G.makeExternal(S);
  EXPECT_TRUE(S.isExternal());
  EXPECT_TRUE(Text.symbols.empty());
  EXPECT_EQ(G.externalSymbols().size(), 1u);
  G.makeDefined(S, B, 8, 4, Linkage::Strong, Scope::Hidden, true);
  EXPECT_TRUE(S.isDefined());
  EXPECT_EQ(S.offset, 8u);
  EXPECT_EQ(S.scope, Scope::Hidden);
  EXPECT_TRUE(G.externalSymbols().empty());
}

TEST_F(GraphFixture, RemoveSymbolsAndBlocks) {
  Block &B = G.createContentBlock(Text, {Bytes, 16}, 0, 1, 0);
  Symbol &S = G.addDefinedSymbol(B, 0, "f", 4, Linkage::Strong, Scope::Default, true, true);
  Symbol &E = G.addExternalSymbol("x", 0, false);
  Symbol &A = G.addAbsoluteSymbol("y", 1, 0, Linkage::Strong, Scope::Default, true);
  G.removeDefinedSymbol(S);
  G.removeExternalSymbol(E);
  G.removeAbsoluteSymbol(A);
  G.removeBlock(B);
  EXPECT_EQ(G.blockCount(), 0u);
  EXPECT_TRUE(G.externalSymbols().empty());
  EXPECT_TRUE(G.absoluteSymbols().empty());
  EXPECT_TRUE(G.definedSymbols().empty());
}

TEST_F(GraphFixture, SplitBlockMovesSymbolsAndEdges) {
  Block &B = G.createContentBlock(Text, {Bytes, 16}, 0x100, 4, 0);
  Symbol &Target = G.addExternalSymbol("t", 0, false);
  Symbol &Lo = G.addDefinedSymbol(B, 2, "lo", 4, Linkage::Strong, Scope::Default, false, true);
  Symbol &Hi = G.addDefinedSymbol(B, 10, "hi", 2, Linkage::Strong, Scope::Default, false, true);
  B.addEdge(edge::FirstRelocation, 3, Target, 1);
  B.addEdge(edge::FirstRelocation, 12, Target, 2);
  Block &Front = G.splitBlock(B, 8);
  EXPECT_EQ(Front.size, 8u);
  EXPECT_EQ(Front.address, 0x100u);
  EXPECT_EQ(B.size, 8u);
  EXPECT_EQ(B.address, 0x108u);
  EXPECT_EQ(B.content()[0], 8);
  EXPECT_EQ(&Lo.block(), &Front);
  EXPECT_EQ(&Hi.block(), &B);
  EXPECT_EQ(Hi.offset, 2u);
  ASSERT_EQ(Front.edges.size(), 1u);
  EXPECT_EQ(Front.edges[0].offset, 3u);
  ASSERT_EQ(B.edges.size(), 1u);
  EXPECT_EQ(B.edges[0].offset, 4u);
  EXPECT_EQ(B.edges[0].addend, 2);
}

TEST_F(GraphFixture, MultiSplitClampsSymbolSizes) {
  Block &B = G.createContentBlock(Data, {Bytes, 16}, 0, 1, 0);
  Symbol &Wide = G.addDefinedSymbol(B, 0, "wide", 16, Linkage::Strong, Scope::Default, false, true);
  const uint64_t Offsets[] = {4, 12};
  auto Pieces = G.splitBlock(B, Offsets);
  ASSERT_EQ(Pieces.size(), 3u);
  EXPECT_EQ(Pieces[0]->size, 4u);
  EXPECT_EQ(Pieces[1]->size, 8u);
  EXPECT_EQ(Pieces[2], &B);
  EXPECT_EQ(B.size, 4u);
  EXPECT_EQ(Wide.size, 4u); // clamped to its new block
}

TEST_F(GraphFixture, MutableContentCopiesOnce) {
  Block &B = G.createContentBlock(Text, {Bytes, 16}, 0, 1, 0);
  auto M = B.mutableContent(G);
  M[0] = 99;
  EXPECT_EQ(Bytes[0], 0); // the original buffer is untouched
  EXPECT_EQ(B.content()[0], 99);
  EXPECT_EQ(B.mutableContent(G).data(), M.data());
  std::string_view S = G.allocateString("hello");
  EXPECT_EQ(S, "hello");
}

TEST_F(GraphFixture, PruneKeepsWhatLiveSymbolsReach) {
  Block &Main = G.createContentBlock(Text, {Bytes, 16}, 0, 1, 0);
  Block &Used = G.createContentBlock(Text, {Bytes, 8}, 0, 1, 0);
  Block &Dead = G.createContentBlock(Data, {Bytes, 8}, 0, 1, 0);
  G.addDefinedSymbol(Main, 0, "main", 16, Linkage::Strong, Scope::Default, true, true);
  Symbol &U = G.addDefinedSymbol(Used, 0, "used", 8, Linkage::Strong, Scope::Local, true, false);
  G.addDefinedSymbol(Dead, 0, "dead", 8, Linkage::Strong, Scope::Local, false, false);
  Symbol &Ext = G.addExternalSymbol("ext", 0, false);
  G.addExternalSymbol("unused_ext", 0, false);
  Main.addEdge(edge::FirstRelocation, 0, U, 0);
  Used.addEdge(edge::FirstRelocation, 0, Ext, 0);
  prune(G);
  EXPECT_EQ(G.blockCount(), 2u);
  EXPECT_TRUE(U.live);
  ASSERT_EQ(G.externalSymbols().size(), 1u);
  EXPECT_EQ(G.externalSymbols()[0], &Ext);
  EXPECT_TRUE(Data.blocks.empty());
}

TEST_F(GraphFixture, DumpUsesLLVMJITLinkFormat) {
  Block &B = G.createContentBlock(Text, {Bytes, 16}, 0x1000, 16, 0);
  Symbol &F = G.addDefinedSymbol(B, 0, "f", 16, Linkage::Strong, Scope::Default, true, true);
  B.addEdge(edge::KeepAlive, 4, F, -8);
  std::string D = G.dump();
  EXPECT_NE(D.find("section .text:\n\n  block 0x1000 size = 0x00000010, align = 16, alignment-offset = 0\n"),
            std::string::npos)
      << D;
  EXPECT_NE(D.find("0x1000 (block + 0x00000000): size: 0x00000010, linkage: strong, scope: default, live  -   f"),
            std::string::npos);
  EXPECT_NE(D.find("0x1004 (block + 0x00000004), addend = -0x00000008, kind = Keep-Alive, target = f"),
            std::string::npos);
  EXPECT_NE(D.find("Absolute symbols:\n  none\n\nExternal symbols:\n  none\n"), std::string::npos);
}

// The most negative addend has no positive counterpart in int64_t (found by
// fuzz_object under UBSan); it prints as its magnitude, as llvm-jitlink does.
TEST_F(GraphFixture, DumpPrintsTheMostNegativeAddend) {
  Block &B = G.createContentBlock(Text, {Bytes, 16}, 0x1000, 16, 0);
  Symbol &F = G.addDefinedSymbol(B, 0, "f", 16, Linkage::Strong, Scope::Default, true, true);
  B.addEdge(edge::KeepAlive, 0, F, INT64_MIN);
  EXPECT_NE(G.dump().find("addend = -0x8000000000000000, kind = Keep-Alive"), std::string::npos) << G.dump();
}

} // namespace

namespace {

TEST_F(GraphFixture, MutableBlocksAndSectionRemoval) {
  char Buf[4] = {1, 2, 3, 4};
  Block &B = G.createMutableContentBlock(Data, {Buf, 4}, 0, 4, 0);
  EXPECT_TRUE(B.contentMutable);
  EXPECT_EQ(B.mutableContent(G).data(), Buf) << "a mutable block is written in place";
  Section &Scratch = G.createSection(".scratch", MemProt::Read);
  EXPECT_EQ(G.findSectionByName(".scratch"), &Scratch);
  G.removeSection(Scratch);
  EXPECT_EQ(G.findSectionByName(".scratch"), nullptr);
  EXPECT_EQ(G.sections().size(), 2u);
}

} // namespace
