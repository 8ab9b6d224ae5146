// Signature notation and spec parsing: the two texts every plan starts from.
#include "callconv/signature.h"
#include "callconv/spec.h"

#include <gtest/gtest.h>

using namespace linklab::callconv;

TEST(CallconvSignature, RoundTripsEveryKind) {
  auto S = parseSignature(" I64 ( ptr, i8,i16,i32,i128, f16,f32,f64,f128, v64,v128, byval(12:4) )");
  ASSERT_TRUE(S) << S.takeError().message();
  EXPECT_EQ(S->str(), "i64(ptr,i8,i16,i32,i128,f16,f32,f64,f128,v64,v128,byval(12:4))");
  EXPECT_EQ(S->Params[4], (ValueType{ValueKind::Int, 16, 16}));
  auto V = parseSignature("void(sret(24),...)");
  ASSERT_TRUE(V);
  EXPECT_TRUE(V->Variadic);
  EXPECT_EQ(V->str(), "void(sret(24:8),...)");
  EXPECT_EQ(parseSignature("void()")->str(), "void()");
}

TEST(CallconvSignature, RejectsWithPosition) {
  EXPECT_EQ(parseSignature("i32(i32,i33)").takeError().message(),
            "signature 'i32(i32,i33)' parameter 1: unknown type 'i33'");
  EXPECT_EQ(parseSignature("i32(i32,)").takeError().message(), "signature 'i32(i32,)' parameter 1: unknown type ''");
  EXPECT_EQ(parseSignature("i32(...,i32)").takeError().message(),
            "signature 'i32(...,i32)': '...' must be the last parameter");
  EXPECT_EQ(parseSignature("i32(byval(8:3))").takeError().message(),
            "signature 'i32(byval(8:3))' parameter 0: 'byval(8:3)' has alignment 3; it must "
            "be a power of two up to 16");
  EXPECT_EQ(parseSignature("byval(8)()").takeError().message(),
            "signature 'byval(8)()': an aggregate result is returned through a "
            "sret(SIZE:ALIGN) parameter");
  EXPECT_EQ(parseSignature("i32(sret(8))").takeError().message(),
            "signature 'i32(sret(8))': a function with a sret parameter returns void");
  EXPECT_EQ(parseSignature("i32").takeError().message(), "signature 'i32': expected RET(PARAM,...)");
}

TEST(CallconvSpec, ParsesAliasesCaseAndWhitespace) {
  auto S = parseSpec(" GPR : RCX , rdx ; ret:rax;;fpr:; bogus:x ; args: rdi + rsi ,stack");
  ASSERT_TRUE(S) << S.takeError().message();
  EXPECT_EQ(S->canonical(), "args:rdi+rsi,stack;gpr:rcx,rdx;fpr:;ret_gpr:rax");
  ASSERT_EQ(S->Warnings.size(), 1u);
  EXPECT_EQ(S->Warnings[0], "callconv spec: unknown key 'bogus' in segment 4 ignored");
  // Aliases of one role name the same convention.
  EXPECT_EQ(parseSpec("arg_xmm:xmm0")->canonical(), parseSpec("fpr:xmm0")->canonical());
}

TEST(CallconvSpec, RejectsStructuralErrors) {
  EXPECT_EQ(parseSpec("gpr:rcx;arg_gpr:rdx").takeError().message(),
            "callconv spec 'gpr:rcx;arg_gpr:rdx': segment 1: key 'arg_gpr' repeats 'gpr'");
  EXPECT_EQ(parseSpec("gpr:rcx,,rdx").takeError().message(),
            "callconv spec 'gpr:rcx,,rdx': segment 0 'gpr': token 1 is empty");
  EXPECT_EQ(parseSpec("ret:rax;rcx").takeError().message(), "callconv spec 'ret:rax;rcx': segment 1 'rcx' has no ':'");
}
