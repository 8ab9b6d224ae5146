// RISC-V 64: custom specs against the LP64D fallback.
#include "callconv_test_support.h"

#include <gtest/gtest.h>

using namespace linklab;
using namespace linklab::callconv;

namespace {

Expected<Plan> plan(std::string_view Input, std::string_view Sig) { return test::planFor(Arch::RISCV64, Input, Sig); }
std::string layout(std::string_view Input, std::string_view Sig) { return test::layoutFor(Arch::RISCV64, Input, Sig); }

} // namespace

TEST(CallconvRiscV64, GprPool) {
  auto P = plan("gpr:t0,a5;ret:a1", "i32(i32,ptr)");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->describe(), "a1(t0, a5)");
  EXPECT_EQ(P->arguments()[0].Register, 5); // DWARF x5
  EXPECT_EQ(layout("", "i64(i32,i64)"), "a0(a0, a1)");
}

TEST(CallconvRiscV64, FprPoolAndIntegerFallback) {
  // LP64D: a float with no FPR left follows the integer convention.
  EXPECT_EQ(layout("fpr:fa3", "void(f64,f64,f32)"), "void(fa3, a0, a1)");
  // Wider than FLEN (f128) and vectors without V: integer register pairs.
  EXPECT_EQ(layout("", "f128(f128,v128)"), "a0+a1(a0+a1, a2+a3)");
  auto P = plan("", "f64(f32)");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->describe(), "fa0(fa0)");
  EXPECT_EQ(P->arguments()[0].Register, 42); // DWARF f10
}

TEST(CallconvRiscV64, StackAndSplitPairs) {
  // A two-XLEN value with one register left is split: a7 and the stack.
  auto P = plan("", "void(i64,i64,i64,i64,i64,i64,i64,i128,i64)");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->describe(), "void(a0, a1, a2, a3, a4, a5, a6, a7+[sp+0], [sp+8])");
  EXPECT_EQ(P->stackBytes(), 16u);
  EXPECT_EQ(layout("gpr:", "void(i32,byval(24:8))"), "void([sp+0], [sp+8])");
}

TEST(CallconvRiscV64, CalleeSavedSet) {
  auto P = plan("csr:fs0,s1", "void()");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->calleeSaved(), (std::vector<uint16_t>{9, 40}));
  EXPECT_EQ(plan("", "void()")->calleeSaved().size(), 23u); // s1-s11, fs0-fs11
}

TEST(CallconvRiscV64, ReservedRegistersAreSkipped) {
  auto P = plan("gpr:zero,ra,sp,gp,tp,s0,fp,a0", "void(i64)");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->describe(), "void(a0)");
  ASSERT_EQ(P->warnings().size(), 7u);
  EXPECT_EQ(P->warnings()[0], "callconv spec: 'gpr' token 0: 'zero' is reserved on riscv64 "
                              "(hard-wired zero); skipped");
  EXPECT_EQ(P->warnings()[5], "callconv spec: 'gpr' token 5: 's0' is reserved on riscv64 "
                              "(frame pointer); skipped");
}

TEST(CallconvRiscV64, CallBetweenTwoSpecs) {
  auto Sig = parseSignature("void(i64,f64)");
  const ArchConventions &T = archConventions(Arch::RISCV64);
  auto Caller = materialize("gpr:a2,a3", *Sig, T);
  auto Callee = materialize("args:a3,fa1", *Sig, T);
  ASSERT_TRUE(Caller && Callee);
  EXPECT_EQ(Caller->describe(), "void(a2, fa0)");
  auto Moves = bridgeMoves(*Caller, *Callee);
  ASSERT_TRUE(Moves);
  ASSERT_EQ(Moves->size(), 2u);
  EXPECT_EQ((*Moves)[0].From.RegisterName + "->" + (*Moves)[0].To.RegisterName, "a2->a3");
  EXPECT_EQ((*Moves)[1].From.RegisterName + "->" + (*Moves)[1].To.RegisterName, "fa0->fa1");
}
