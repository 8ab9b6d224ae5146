// Hardening: what a careless or hostile spec, signature or caller can do.
#include "callconv/registry.h"
#include "callconv_test_support.h"

#include <gtest/gtest.h>

using namespace linklab;
using namespace linklab::callconv;

TEST(CallconvHardening, CsrConflictWarnsButSucceeds) {
  auto P = test::planFor(Arch::X86_64, "gpr:rbx,rcx;csr:rbx,r12", "void(i64,i64)");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->describe(), "void(rbx, rcx)");
  EXPECT_EQ(P->warnings(), (std::vector<std::string>{"callconv spec: rbx is callee-saved ('csr') and also in "
                                                     "'gpr' (token 0)"}));
  // The ABI's default set counts too: a result in x19 contradicts AAPCS64.
  auto Q = test::planFor(Arch::AArch64, "ret:x19", "i64()");
  ASSERT_TRUE(Q);
  EXPECT_EQ(Q->warnings().at(0), "callconv spec: x19 is callee-saved ('csr') and also in 'ret' (token 0)");
  // Listing is enough: the conflict is in the convention, not in one call.
  auto Unused = test::planFor(Arch::RISCV64, "args:a0,s2+s3;csr:s3", "void()");
  ASSERT_TRUE(Unused);
  EXPECT_EQ(Unused->warnings(), (std::vector<std::string>{"callconv spec: s3 is callee-saved ('csr') and also in "
                                                          "'args' (token 1)"}));
}

TEST(CallconvHardening, VariadicRefusedOnEveryTarget) {
  ConventionRegistry Registry;
  bool Called = false;
  ASSERT_FALSE(Registry.add("any", [&](const ArchConventions &, const Signature &) -> Expected<PlanTable> {
    Called = true;
    return PlanTable{};
  }));
  Signature Sig = *parseSignature("i32(ptr,...)");
  for (Arch A : {Arch::X86_64, Arch::AArch64, Arch::RISCV64}) {
    const ArchConventions &T = archConventions(A);
    std::string Want = std::string("callconv: cannot plan 'i32(ptr,...)' for ") + T.Name +
                       ": variadic functions are not supported (their variadic arguments "
                       "would be mis-passed)";
    EXPECT_EQ(standardPlan(T, Sig).takeError().message(), Want);
    EXPECT_EQ(materialize("gpr:", Sig, T).takeError().message(), Want);
    EXPECT_EQ(Registry.plan("any", T, Sig).takeError().message(), "convention 'any': " + Want);
    // A plan text written for the fixed part cannot smuggle one through.
    auto Fixed = standardPlan(T, *parseSignature("i32(ptr)"));
    ASSERT_TRUE(Fixed);
    EXPECT_EQ(parsePlan(Fixed->text(), Sig, T).takeError().message(), Want);
  }
  EXPECT_FALSE(Called);
}

TEST(CallconvHardening, IndirectCallUsesStandardConvention) {
  auto Custom = test::planFor(Arch::X86_64, "gpr:r10,r11", "i64(i64,i64)");
  ASSERT_TRUE(Custom);
  std::vector<std::string> Warnings;
  auto Indirect = planIndirectCall(*Custom, "fast_add", Warnings);
  ASSERT_TRUE(Indirect);
  EXPECT_TRUE(Indirect->isStandard());
  EXPECT_EQ(Indirect->describe(), "rax(rdi, rsi)");
  EXPECT_EQ(Warnings, (std::vector<std::string>{"callconv: address of 'fast_add' taken for an indirect call: "
                                                "indirect calls use the standard SysV convention, not its convention " +
                                                Custom->convention().str()}));
  Warnings.clear();
  ASSERT_TRUE(planIndirectCall(*Indirect, "plain", Warnings));
  EXPECT_TRUE(Warnings.empty());
}

TEST(CallconvHardening, NamingStackPointersAndCautionRegisters) {
  auto P = test::planFor(Arch::X86_64, "gpr:rsp,rcx", "void(i64)");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->describe(), "void(rcx)");
  EXPECT_EQ(P->warnings().at(0), "callconv spec: 'gpr' token 0: 'rsp' is reserved on x86_64 (stack pointer); skipped");
  auto Q = test::planFor(Arch::AArch64, "args:sp,x1", "void(i64,i64)");
  ASSERT_TRUE(Q);
  EXPECT_EQ(Q->describe(), "void([sp+0], x1)");
  EXPECT_EQ(Q->warnings().at(0), "callconv spec: argument 0 (i64): 'args' token 'sp': sp is "
                                 "reserved on aarch64 (stack pointer); passed on the stack");
  EXPECT_EQ(test::planFor(Arch::AArch64, "ret:x30", "i64()").takeError().message(),
            "callconv: return value (i64) needs 1 register(s) but 'ret' provides 0 usable on "
            "aarch64; return it through a sret parameter");
  // Allowed, with the reason to be careful.
  auto R = test::planFor(Arch::X86_64, "gpr:rbp", "void(i64)");
  ASSERT_TRUE(R);
  EXPECT_EQ(R->warnings(), (std::vector<std::string>{"callconv spec: rbp is callee-saved ('csr') and also in "
                                                     "'gpr' (token 0)",
                                                     "callconv spec: argument 0 in rbp: rbp is only sound without "
                                                     "a frame pointer"}));
  auto V = test::planFor(Arch::AArch64, "gpr:x16", "void(i64)");
  ASSERT_TRUE(V);
  EXPECT_EQ(V->warnings().at(0), "callconv spec: argument 0 in x16: x16 (ip0) may be clobbered "
                                 "by linker veneers and PLT stubs");
}

TEST(CallconvHardening, UnknownNamesAndTriplesAreErrors) {
  EXPECT_EQ(test::planFor(Arch::X86_64, "gpr:rcx,r16", "void()").takeError().message(),
            "callconv spec: 'gpr' token 1: 'r16' is not a x86_64 register");
  EXPECT_EQ(test::planFor(Arch::X86_64, "args:stack,rdi+foo", "void(i64)").takeError().message(),
            "callconv spec: 'args' token 1: 'foo' is not a x86_64 register");
  EXPECT_EQ(test::planFor(Arch::RISCV64, "fpr:f10", "void()").takeError().message(),
            "callconv spec: 'fpr' token 0: 'f10' is not a riscv64 register");
  auto WrongClass = test::planFor(Arch::RISCV64, "fpr:a0,fa1", "void(f64)");
  ASSERT_TRUE(WrongClass);
  EXPECT_EQ(WrongClass->describe(), "void(fa1)");
  EXPECT_EQ(WrongClass->warnings().at(0), "callconv spec: 'fpr' token 0: 'a0' is not a "
                                          "floating-point/vector register; skipped");
  EXPECT_EQ(*targetForTriple("riscv64-unknown-linux-gnu"), &archConventions(Arch::RISCV64));
  EXPECT_EQ(targetForTriple("mips-linux-gnu").takeError().message(),
            "callconv: unsupported triple 'mips-linux-gnu': known architectures are x86_64, "
            "aarch64, riscv64");
  EXPECT_EQ(targetForTriple("x86_64-pc-windows-msvc").takeError().message(),
            "callconv: unsupported triple 'x86_64-pc-windows-msvc': only the ELF platforms' "
            "conventions (SysV, AAPCS64, LP64D) are modelled");
}
