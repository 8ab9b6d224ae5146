// Plan text: the exact format, round trips, the four rejection diagnostics,
// and plugin-registered conventions.
#include "callconv/embedded.h"
#include "callconv/plan.h"
#include "callconv/registry.h"

#include <gtest/gtest.h>

using namespace linklab;
using namespace linklab::callconv;

namespace {

const ArchConventions &X86 = archConventions(Arch::X86_64);
const ArchConventions &A64 = archConventions(Arch::AArch64);

Signature sig(std::string_view S) { return *parseSignature(S); }

std::string replace(std::string S, std::string_view From, std::string_view To) {
  size_t At = S.find(From);
  EXPECT_NE(At, std::string::npos) << From;
  return At == std::string::npos ? S : S.replace(At, From.size(), To);
}

std::string x86Text() {
  return "v1;schema=" + X86.Schema + ";target=62:1;cc=" + conventionOf(*parseSpec("gpr:rcx;ret:rax")).str() +
         ";stack=16;returns=r,0,0,4,4,0,-,0x0;arguments=r,0,0,4,4,2,-,0x0|s,1,0,8,8,-,0,0x0;"
         "callee-saved=3,6,12,13,14,15";
}

} // namespace

TEST(CallconvPlan, TextFormat) {
  auto P = materialize("GPR: rcx; RET: rax", sig("i32(i32,i64)"), X86);
  ASSERT_TRUE(P) << P.takeError().message();
  EXPECT_EQ(P->text(), x86Text());
  EXPECT_EQ(P->convention().K, ConventionId::Spec);
  // Each target has its own schema; the schema names the target's table.
  EXPECT_EQ(X86.Schema.rfind("x86_64.", 0), 0u);
  EXPECT_NE(X86.Schema, A64.Schema);
  EXPECT_NE(A64.Schema, archConventions(Arch::RISCV64).Schema);
}

TEST(CallconvPlan, PlanInputIsValidatedNotRegenerated) {
  auto P = materialize(x86Text(), sig("i32(i32,i64)"), X86);
  ASSERT_TRUE(P) << P.takeError().message();
  EXPECT_EQ(P->text(), x86Text());
  EXPECT_EQ(P->describe(), "eax(ecx, [sp+0])");
  // A valid plan that no spec would produce is kept as written.
  std::string Moved = replace(x86Text(), "|s,1,0,8,8,-,0,0x0", "|s,1,0,8,8,-,8,0x0");
  auto Q = materialize(Moved, sig("i32(i32,i64)"), X86);
  ASSERT_TRUE(Q) << Q.takeError().message();
  EXPECT_EQ(Q->arguments()[1].StackOffset, 8);
  // The standard plan round-trips too, with the standard convention ID.
  auto Std = standardPlan(A64, sig("f64(i32,f32)"));
  ASSERT_TRUE(Std);
  EXPECT_EQ(Std->convention().str(), "1:0x00000001");
  auto Again = parsePlan(Std->text(), sig("f64(i32,f32)"), A64);
  ASSERT_TRUE(Again);
  EXPECT_EQ(Again->describe(), "d0(w0, s0)");
}

TEST(CallconvPlan, RejectsForeignSchema) {
  auto A = materialize("gpr:x1", sig("void(i32)"), A64);
  ASSERT_TRUE(A);
  EXPECT_EQ(parsePlan(A->text(), sig("void(i32)"), X86).takeError().message(),
            "plan belongs to foreign target schema '" + A64.Schema + "' (x86_64 uses '" + X86.Schema + "')");
}

TEST(CallconvPlan, RejectsForeignTargetId) {
  std::string Text = replace(x86Text(), "target=62:1", "target=62:2");
  EXPECT_EQ(materialize(Text, sig("i32(i32,i64)"), X86).takeError().message(),
            "plan has foreign target ID 62:2 (x86_64 is 62:1)");
}

TEST(CallconvPlan, RejectsForeignConventionId) {
  ConventionId Declared = conventionOf(*parseSpec("gpr:rdx"));
  ConventionId Actual = conventionOf(*parseSpec("gpr:rcx;ret:rax"));
  ASSERT_NE(Declared, Actual);
  EXPECT_EQ(materialize(x86Text(), sig("i32(i32,i64)"), X86, Declared).takeError().message(),
            "plan has foreign convention ID " + Actual.str() + " (expected " + Declared.str() + ")");
  EXPECT_TRUE(materialize(x86Text(), sig("i32(i32,i64)"), X86, Actual));
  // Equivalent spellings name the same convention.
  EXPECT_EQ(conventionOf(*parseSpec(" ret : RAX ; arg_gpr : rcx ")), Actual);
}

TEST(CallconvPlan, RejectsMalformedPlans) {
  auto Msg = [](const std::string &Text, std::string_view Sig = "i32(i32,i64)") {
    auto P = parsePlan(Text, sig(Sig), X86);
    return P ? std::string("accepted") : P.takeError().message();
  };
  const std::string T = x86Text();
  // The plan with argument 1's stack part replaced by Part ("" drops it).
  auto Arg1 = [&](const std::string &Part) { return Msg(replace(T, "|s,1,0,8,8,-,0,0x0", Part)); };
  EXPECT_EQ(Msg("v1;schema=x"), "malformed plan: expected 8 ';'-separated fields, found 2");
  EXPECT_EQ(Msg(replace(T, "v1;", "v9;")), "malformed plan: version 'v9' is not 'v1'");
  EXPECT_EQ(Msg(replace(T, ";stack=", ";stak=")), "malformed plan: field 4 is 'stak=16', expected 'stack=...'");
  EXPECT_EQ(Msg(replace(T, "r,0,0,4,4,2,-,0x0", "r,0,0,4,4,2,-")),
            "malformed plan: arguments location 0 'r,0,0,4,4,2,-': expected "
            "<r|s>,value,offset,size,align,register,stack offset,flags");
  EXPECT_EQ(Arg1("|r,1,0,8,8,2,-,0x0"),
            "malformed plan: argument 1 (i64) part +0: rcx already carries another argument "
            "part");
  EXPECT_EQ(Arg1("|r,1,0,8,8,17,-,0x0"), "malformed plan: argument 1 (i64) part +0: xmm0 cannot carry 8 bytes of i64");
  EXPECT_EQ(Arg1("|r,1,0,8,8,7,-,0x0"), "malformed plan: argument 1 (i64) part +0: register 7 is not a usable x86_64 "
                                        "register");
  EXPECT_EQ(Arg1("|s,1,0,8,8,-,4,0x0"), "malformed plan: argument 1 (i64) part +0: stack slot 4 is outside the 16-byte "
                                        "argument area or misaligned");
  EXPECT_EQ(Arg1(""), "malformed plan: argument 1 (i64): parts cover 0 of 8 bytes");
  EXPECT_EQ(Msg(T, "i32(i32)"), "malformed plan: argument 1 is not in signature 'i32(i32)'");
  EXPECT_EQ(Msg(replace(T, "stack=16", "stack=12")), "malformed plan: stack size 12 is not a multiple of 16");
  EXPECT_EQ(Msg(replace(T, "callee-saved=3,", "callee-saved=7,")),
            "malformed plan: callee-saved register 7 is unknown, reserved or out of order");
}

TEST(CallconvPlan, PluginConventions) {
  ConventionRegistry Registry;
  // A convention a spec cannot write: every argument on the stack, in
  // reverse order, result in the first integer register of the schema.
  ASSERT_FALSE(Registry.add("reversed", [](const ArchConventions &T, const Signature &S) -> Expected<PlanTable> {
    PlanTable Table;
    uint32_t Off = 0;
    for (size_t I = S.Params.size(); I-- > 0; Off += 8)
      Table.Arguments.push_back({false, uint32_t(I), 0, S.Params[I].Size, S.Params[I].Align, -1, Off, 0, "", 0});
    Table.StackBytes = (Off + 15) / 16 * 16;
    if (S.Return)
      Table.Returns.push_back({true, 0, 0, S.Return->Size, S.Return->Align, 0, -1, 0, "", 0});
    return Table;
  }));
  auto P = Registry.plan("reversed", X86, sig("i32(i32,i64,i16)"));
  ASSERT_TRUE(P) << P.takeError().message();
  EXPECT_EQ(P->describe(), "eax([sp+16], [sp+8], [sp+0])");
  EXPECT_EQ(P->convention(), conventionOfPlugin("reversed"));
  // What a plugin returns is validated like any plan.
  EXPECT_EQ(Registry.plan("reversed", X86, sig("f128()")).takeError().message(),
            "convention 'reversed': malformed plan: return value 0 (f128) part +0: rax cannot "
            "carry 16 bytes of f128");
  EXPECT_FALSE(Registry.add(
      "bad", [](const ArchConventions &, const Signature &) -> Expected<PlanTable> { return PlanTable{}; }));
  EXPECT_EQ(Registry.plan("bad", A64, sig("void(i32)")).takeError().message(),
            "convention 'bad': malformed plan: argument 0 (i32): parts cover 0 of 4 bytes");
  EXPECT_EQ(Registry.add("reversed", nullptr).message(),
            "callconv: cannot register convention 'reversed': names are [a-z0-9_.-]+ and need "
            "a callback");
  EXPECT_EQ(
      Registry.add("bad", [](const ArchConventions &, const Signature &) -> Expected<PlanTable> { return PlanTable{}; })
          .message(),
      "callconv: convention 'bad' is already registered");
  EXPECT_EQ(Registry.plan("fast", X86, sig("void()")).takeError().message(),
            "convention 'fast': not registered (registered: reversed, bad)");
  // The linker's entries (-cc, .linklab.callconv sections) name them "@NAME".
  ConventionTable Table(X86, &Registry);
  ASSERT_FALSE(Table.add("rev3=i32(i32,i64,i16);@reversed", "-cc"));
  ASSERT_NE(Table.find("rev3"), nullptr);
  EXPECT_EQ(Table.find("rev3")->describe(), "eax([sp+16], [sp+8], [sp+0])");
  EXPECT_EQ(Table.find("rev3")->convention(), conventionOfPlugin("reversed"));
  EXPECT_EQ(Table.add("g=void();@fast", "-cc").message(),
            "-cc: 'g=void();@fast': convention 'fast': not registered (registered: reversed, bad)");
  ConventionTable NoRegistry(X86);
  EXPECT_EQ(NoRegistry.add("h=void();@reversed", "-cc").message(),
            "-cc: 'h=void();@reversed': '@reversed' names a plugin convention, and no convention registry is given");
}
