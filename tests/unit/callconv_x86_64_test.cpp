// x86-64: custom specs against the SysV fallback. Layouts are read with
// Plan::describe: each value's parts, '+'-joined, stack parts as [sp+N].
#include "callconv_test_support.h"

#include <gtest/gtest.h>

using namespace linklab;
using namespace linklab::callconv;

namespace {

Expected<Plan> plan(std::string_view Input, std::string_view Sig) { return test::planFor(Arch::X86_64, Input, Sig); }
std::string layout(std::string_view Input, std::string_view Sig) { return test::layoutFor(Arch::X86_64, Input, Sig); }

} // namespace

TEST(CallconvX86_64, GprPoolInOrder) {
  auto P = plan("gpr:rcx,rdx;ret:rax", "i64(i32,ptr)");
  ASSERT_TRUE(P) << P.takeError().message();
  EXPECT_EQ(P->describe(), "rax(ecx, rdx)");
  const Location &A0 = P->arguments()[0];
  EXPECT_TRUE(A0.InRegister);
  EXPECT_EQ(A0.Register, 2); // DWARF rcx
  EXPECT_EQ(A0.RegisterName, "ecx");
  EXPECT_EQ(A0.RegisterBytes, 4u);
  EXPECT_EQ(A0.Flags, 0u);
  EXPECT_TRUE(P->warnings().empty());
  // Integer and float pools advance independently; a float with no xmm left
  // goes to the stack.
  EXPECT_EQ(layout("gpr:rcx,rdx;xmm:xmm5", "void(i32,f64,i64,f32)"), "void(ecx, xmm5, rdx, [sp+0])");
}

TEST(CallconvX86_64, PositionalArgs) {
  EXPECT_EQ(layout("args:r9,xmm3,stack,rdi+rsi", "void(i64,f64,i32,i128)"), "void(r9, xmm3, [sp+0], rdi+rsi)");
  // `args` takes precedence over the pools.
  EXPECT_EQ(layout("args:rcx;gpr:rdx", "void(i32)"), "void(ecx)");
  auto P = plan("args:xmm0,rcx", "void(i32,i32,i32)");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->describe(), "void([sp+0], ecx, [sp+8])");
  EXPECT_EQ(P->warnings(),
            (std::vector<std::string>{"callconv spec: argument 0 (i32): 'args' token 'xmm0': xmm0 is not a "
                                      "general-purpose register; passed on the stack",
                                      "callconv spec: argument 2 (i32): past the 'args' list (2 tokens); passed on "
                                      "the stack"}));
}

TEST(CallconvX86_64, EmptyPoolPutsEverythingOnTheStack) {
  auto P = plan("gpr:", "i32(i32,i16,byval(12:4))");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->describe(), "eax([sp+0], [sp+8], [sp+16]+[sp+24])");
  EXPECT_EQ(P->stackBytes(), 32u);
}

TEST(CallconvX86_64, PoolOverflow) {
  // SysV: a two-register value that does not fit goes to the stack whole,
  // and a later single register value still takes the register left over.
  auto P = plan("gpr:rcx,rdx", "void(i64,i128,i32,i64)");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->describe(), "void(rcx, [sp+0]+[sp+8], edx, [sp+16])");
  EXPECT_EQ(P->stackBytes(), 32u);
  auto S = parseSignature("void(i64,i64,i64,i64,i64,i64,i64,f64,f64,f64,f64,f64,f64,f64,f64,f64)");
  auto Std = standardPlan(archConventions(Arch::X86_64), *S);
  ASSERT_TRUE(Std);
  EXPECT_EQ(Std->describe(), "void(rdi, rsi, rdx, rcx, r8, r9, [sp+0], xmm0, xmm1, xmm2, xmm3, "
                             "xmm4, xmm5, xmm6, xmm7, [sp+8])");
}

TEST(CallconvX86_64, IntegerWidthsUseSubRegisters) {
  auto P = plan("gpr:r8,r9,r10,r11", "i64(i8,i16,i32,i64)");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->describe(), "rax(r8d, r9d, r10d, r11)");
  EXPECT_EQ(P->arguments()[0].RegisterBytes, 4u);
  EXPECT_EQ(P->arguments()[0].Size, 1u);
  EXPECT_EQ(P->arguments()[3].RegisterBytes, 8u);
  EXPECT_EQ(layout("ret:rdx", "i32()"), "edx()");
}

TEST(CallconvX86_64, StructReturn) {
  auto Std = plan("", "void(sret(32:8),i32)");
  ASSERT_TRUE(Std);
  EXPECT_EQ(Std->describe(), "void(rdi, esi)");
  EXPECT_EQ(Std->arguments()[0].Flags & SRetPointer, uint32_t(SRetPointer));
  EXPECT_TRUE(Std->returns().empty());
  EXPECT_EQ(layout("gpr:rcx,rdx", "void(sret(32:8),i32)"), "void(rcx, edx)");
}

TEST(CallconvX86_64, ByValueAggregates) {
  // Up to 16 bytes: eightbytes in GPRs; larger: a copy on the stack (SysV 3.2.3).
  auto P = plan("", "void(byval(12:4),byval(32:8),i32)");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->describe(), "void(rdi+esi, [sp+0], edx)");
  const Location &Big = P->arguments()[2];
  EXPECT_EQ(Big.Size, 32u);
  EXPECT_EQ(Big.Flags, uint32_t(ByValue));
  EXPECT_EQ(P->stackBytes(), 32u);
  // A register named for a memory-class value is ignored, with a warning.
  auto Q = plan("args:rdi", "void(byval(32:8))");
  ASSERT_TRUE(Q);
  EXPECT_EQ(Q->describe(), "void([sp+0])");
  EXPECT_EQ(Q->warnings().at(0), "callconv spec: argument 0 (byval(32:8)): SysV passes it in "
                                 "memory, 'args' token 'rdi' ignored; passed on the stack");
}

TEST(CallconvX86_64, UncoveredValuesFallBackToSysV) {
  auto P = plan("ret:rax", "f64(f64,i32)");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->describe(), "xmm0(xmm0, edi)");
  EXPECT_EQ(P->returns()[0].Flags, uint32_t(Fallback));
  EXPECT_EQ(P->arguments()[1].Flags, uint32_t(Fallback));
  auto Q = plan("gpr:rcx", "void(i32,f64)");
  ASSERT_TRUE(Q);
  EXPECT_EQ(Q->describe(), "void(ecx, xmm0)");
  EXPECT_EQ(Q->arguments()[0].Flags, 0u);
  EXPECT_EQ(Q->arguments()[1].Flags, uint32_t(Fallback));
  // A positional register already taken is not reused by the fallback.
  EXPECT_EQ(layout("gpr:rdi,rdi,rsi", "void(i64,i64)"), "void(rdi, rsi)");
}
