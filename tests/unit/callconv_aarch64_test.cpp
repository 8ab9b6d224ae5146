// AArch64: custom specs against the AAPCS64 fallback.
#include "callconv_test_support.h"

#include <gtest/gtest.h>

using namespace linklab;
using namespace linklab::callconv;

namespace {

Expected<Plan> plan(std::string_view Input, std::string_view Sig) { return test::planFor(Arch::AArch64, Input, Sig); }
std::string layout(std::string_view Input, std::string_view Sig) { return test::layoutFor(Arch::AArch64, Input, Sig); }

} // namespace

TEST(CallconvAArch64, GprPool) {
  EXPECT_EQ(layout("gpr:x9,x10;ret:x11", "i64(i32,i64)"), "x11(w9, x10)");
  EXPECT_EQ(layout("", "i32(i32,i64,ptr)"), "w0(w0, x1, x2)");
}

TEST(CallconvAArch64, FprViewsNarrowPerType) {
  auto P = plan("fpr:v4,v5,v6,v7,v8,v9", "void(f16,f32,f64,f128,v64,v128)");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->describe(), "void(h4, s5, d6, q7, d8, q9)");
  EXPECT_EQ(P->arguments()[0].Register, 68); // DWARF v4
  EXPECT_EQ(P->arguments()[0].RegisterBytes, 2u);
  EXPECT_EQ(layout("", "f32(f64)"), "s0(d0)");
}

TEST(CallconvAArch64, StackAndPairRules) {
  // C.8: a 16-byte aligned value starts at an even register.
  EXPECT_EQ(layout("", "void(i64,i128)"), "void(x0, x2+x3)");
  // C.14: once a value does not fit, no later value uses the pool.
  auto P = plan("gpr:x0,x1,x2", "void(i64,i64,i128,i64)");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->describe(), "void(x0, x1, [sp+0]+[sp+8], [sp+16])");
  EXPECT_EQ(P->stackBytes(), 32u);
  // Aggregates over 16 bytes pass a pointer to a copy; sret goes to x8.
  auto Q = plan("", "void(sret(64:8),byval(24:8),i32)");
  ASSERT_TRUE(Q);
  EXPECT_EQ(Q->describe(), "void(x8, x0, w1)");
  // An empty spec covers nothing: every location comes from the fallback.
  EXPECT_EQ(Q->arguments()[1].Flags, uint32_t(ByValue | Indirect | Fallback));
}

TEST(CallconvAArch64, CalleeSavedSet) {
  auto P = plan("csr:x20,x19;gpr:x0", "void(i32)");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->calleeSaved(), (std::vector<uint16_t>{19, 20}));
  auto Std = plan("", "void()");
  ASSERT_TRUE(Std);
  ASSERT_EQ(Std->calleeSaved().size(), 18u); // x19-x28, v8-v15
  EXPECT_EQ(Std->calleeSaved().front(), 19);
  EXPECT_EQ(Std->calleeSaved().back(), 64 + 15);
}

TEST(CallconvAArch64, CallBetweenTwoSpecs) {
  auto Sig = parseSignature("i64(i64,f64,i32)");
  const ArchConventions &T = archConventions(Arch::AArch64);
  auto Caller = standardPlan(T, *Sig);
  auto Callee = materialize("gpr:x3,x2;fpr:v7;ret:x5", *Sig, T);
  ASSERT_TRUE(Caller && Callee);
  EXPECT_EQ(Caller->describe(), "x0(x0, d0, w1)");
  EXPECT_EQ(Callee->describe(), "x5(x3, d7, w2)");
  auto Moves = bridgeMoves(*Caller, *Callee);
  ASSERT_TRUE(Moves) << Moves.takeError().message();
  std::vector<std::string> Seen;
  for (const Move &M : *Moves)
    Seen.push_back((M.IsReturn ? "ret " : "arg ") + M.From.RegisterName + "->" + M.To.RegisterName);
  EXPECT_EQ(Seen, (std::vector<std::string>{"arg x0->x3", "arg d0->d7", "arg w1->w2", "ret x5->x0"}));
  // Parts already in place need no move.
  auto Same = materialize("gpr:x0,x2", *Sig, T);
  ASSERT_TRUE(Same);
  auto Fewer = bridgeMoves(*Caller, *Same);
  ASSERT_TRUE(Fewer);
  ASSERT_EQ(Fewer->size(), 1u);
  EXPECT_EQ((*Fewer)[0].To.RegisterName, "w2");
  // Plans for different signatures cannot be bridged.
  auto Other = standardPlan(T, *parseSignature("i64(i64)"));
  EXPECT_EQ(bridgeMoves(*Caller, *Other).takeError().message(),
            "callconv: cannot bridge a aarch64 plan for 'i64(i64,f64,i32)' to a aarch64 plan "
            "for 'i64(i64)'");
}
