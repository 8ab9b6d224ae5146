// Calling conventions verified by execution: tests/inputs/callconv/<arch>_custom.s
// (functions that take their arguments in custom registers) assembled at test
// time and called through plans in linklab-executor via `linklab -call`, and
// tests/inputs/callconv/caller.c calling them through bridge thunks. Every
// expected value is computed here from the arguments and the function's
// formula, never copied from a run.
#include "callconv/plan.h"
#include "test_support.h"

using namespace linklab;
using namespace linklab::test;

namespace {

struct ArchCase {
  const char *name, *triple, *mcFlags, *ccFlags;
  // Specs per case, in this arch's register names.
  const char *pool, *positional, *stack, *overflow, *wide, *sret, *byval16, *fallback, *fpr, *csrStd, *outer;
};
const ArchCase Cases[] = {
    {"x86_64", "x86_64-linux-gnu", "", "", "gpr:rcx,r8,r11;ret:rax", "args:r8,rcx,r11;ret:rax",
     "args:rcx,stack,stack;ret:rdx", "gpr:rcx;ret:rdx", "args:rcx+r8;ret:rax,rdx", "gpr:r10,rcx",
     "gpr:r9,r10;ret:rax", "ret:rcx", "fpr:xmm3,xmm5;ret_fpr:xmm2", "gpr:rdi", "gpr:r10,r11;ret:rax"},
    {"aarch64", "aarch64-linux-gnu", "", "", "gpr:x9,x10,x11;ret:x12", "args:x10,x9,x11;ret:x12",
     "args:x9,stack,stack;ret:x12", "gpr:x9;ret:x12", "args:x9+x10;ret:x12,x13", "gpr:x9", "gpr:x9,x10;ret:x12",
     "ret:x12", "fpr:v20,v21;ret_fpr:v22", "gpr:x0", "gpr:x14,x15;ret:x0"},
    {"riscv64", "riscv64-linux-gnu", "-mattr=+d", "-march=rv64gc", "gpr:t0,t2,t4;ret:t5",
     "args:t2,t0,t4;ret:t5", "args:t0,stack,stack;ret:t5", "gpr:t0;ret:t5", "args:t0+t2;ret:t5,t6", "gpr:t0,t2",
     "gpr:t0,t2;ret:t5", "ret:t5", "fpr:ft4,ft5;ret_fpr:ft6", "gpr:a0", "gpr:t4,t6;ret:a0"},
};

std::string quote(const std::string &S) { return "'" + S + "'"; }
std::string le64(uint64_t V) {
  std::string S;
  for (int I = 0; I < 8; ++I)
    S += formatv("%02x", unsigned(V >> (8 * I)) & 0xff);
  return S;
}

class CallconvExec : public ::testing::TestWithParam<ArchCase> {
protected:
  void SetUp() override {
    Custom = D.file("custom.o");
    auto R = runCommand("llvm-mc-22 -triple=" + std::string(GetParam().triple) + " " + GetParam().mcFlags +
                        " -filetype=obj -o " + Custom + " " + sourceDir() + "/tests/inputs/callconv/" +
                        GetParam().name + "_custom.s");
    ASSERT_EQ(R.status, 0) << R.output;
  }
  // linklab -call through the given spec; returns the output lines.
  CommandResult call(const std::string &Sym, const std::string &Sig, const std::string &Spec, const std::string &Args,
                     const std::string &Objects = "") {
    return runCommand(linklabPath() + " -runtime=none " + (Objects.empty() ? Custom : Objects) + " -call=" + Sym +
                      " -call-sig=" + quote(Sig) + (Spec.empty() ? "" : " -call-conv=" + quote(Spec)) +
                      " -call-args=" + quote(Args));
  }
  void expectReturn(const std::string &Sym, const std::string &Sig, const std::string &Spec, const std::string &Args,
                    const std::string &Expected) {
    auto R = call(Sym, Sig, Spec, Args);
    EXPECT_EQ(R.status, 0) << R.output;
    EXPECT_EQ(R.output, Expected + "\n") << Sym << " " << Spec;
  }
  TempDir D;
  std::string Custom;
};

long long weighted(long long A, long long B, long long C) { return A + 2 * B + 3 * C; }

TEST_P(CallconvExec, test_gpr_pool) {
  expectReturn("add3", "i64(i64,i64,i64)", GetParam().pool, "1,2,3", "return: " + std::to_string(weighted(1, 2, 3)));
}

TEST_P(CallconvExec, test_positional_args) {
  // args: places argument 0 where add3 reads its second operand.
  expectReturn("add3", "i64(i64,i64,i64)", GetParam().positional, "1,2,3",
               "return: " + std::to_string(weighted(2, 1, 3)));
}

TEST_P(CallconvExec, test_stack_args) {
  expectReturn("wsum", "i64(i64,i64,i64)", GetParam().stack, "4,5,6", "return: " + std::to_string(weighted(4, 5, 6)));
}

TEST_P(CallconvExec, test_pool_overflow_to_stack) {
  expectReturn("wsum", "i64(i64,i64,i64)", GetParam().overflow, "7,-8,9",
               "return: " + std::to_string(weighted(7, -8, 9)));
}

TEST_P(CallconvExec, test_i64_values) {
  long long A = 1000000000000, B = -7000000000, C = 0x12345678;
  expectReturn("add3", "i64(i64,i64,i64)", GetParam().pool, formatv("%lld,%lld,%lld", A, B, C),
               "return: " + std::to_string(weighted(A, B, C)));
}

TEST_P(CallconvExec, test_i128_register_pair) {
  // 2^64 - 1 + 1 carries into the high register.
  expectReturn("inc128", "i128(i128)", GetParam().wide, "0xffffffffffffffff", "return: 0x10000000000000000");
}

TEST_P(CallconvExec, test_sret_buffer) {
  expectReturn("mkpair", "void(sret(16:8),i64)", GetParam().sret, "21", "sret 0: bytes:" + le64(21) + le64(42));
}

TEST_P(CallconvExec, test_byval_in_registers_and_by_copy) {
  expectReturn("bsum16", "i64(byval(16:8))", GetParam().byval16, "bytes:" + le64(5) + le64(7),
               "return: " + std::to_string(5 + 3 * 7));
  // > 16 bytes: a stack copy on x86-64, a pointer to a copy elsewhere.
  expectReturn("bsum24", "i64(byval(24:8))", "", "bytes:" + le64(1) + le64(10) + le64(100),
               "return: " + std::to_string(weighted(1, 10, 100)));
}

TEST_P(CallconvExec, test_fallback_to_standard_arguments) {
  expectReturn("fbdiff", "i64(i64,i64)", GetParam().fallback, "50,8", "return: 42");
}

TEST_P(CallconvExec, test_fpr_arguments) {
  expectReturn("fsub2", "f64(f64,f64)", GetParam().fpr, "10.5,0.25", "return: 10.25");
}

TEST_P(CallconvExec, test_csr_clobbers_reported_per_plan) {
  // Default csr: the two registers clobber overwrites are reported...
  auto R = call("clobber", "i64(i64)", GetParam().csrStd, "5");
  EXPECT_EQ(R.status, 0) << R.output;
  EXPECT_NE(R.output.find("return: 5\n"), std::string::npos) << R.output;
  size_t Lines = 0;
  for (size_t P = 0; (P = R.output.find("clobbered: ", P)) != std::string::npos; ++P)
    ++Lines;
  EXPECT_EQ(Lines, 2u) << R.output;
  // ...and with the object's embedded convention (csr without them) nothing is.
  R = runCommand(linklabPath() + " -runtime=none " + Custom + " -call=clobber -call-args=5");
  EXPECT_EQ(R.output, "return: 5\n");
}

TEST_P(CallconvExec, test_call_between_two_specs) {
  // outer (its own spec) calls add3 in add3's spec: add3(a, b, a).
  expectReturn("outer", "i64(i64,i64)", GetParam().outer, "3,4", "return: " + std::to_string(weighted(3, 4, 3)));
}

TEST_P(CallconvExec, test_bridge_thunks_from_c) {
  std::string Caller = compile(D, sourceDir() + "/tests/inputs/callconv/caller.c", GetParam().triple,
                               std::string("-O1 -ffreestanding ") + GetParam().ccFlags, "caller.o");
  auto R = runCommand(linklabPath() + " -runtime=none " + Caller + " " + Custom);
  EXPECT_EQ(R.status, 0) << "bits of wrong results: " << R.output;
  // The thunk keeps the registers the standard ABI promises even though the
  // embedded plan of clobber does not.
  R = runCommand(linklabPath() + " -runtime=none " + Caller + " " + Custom +
                 " -call=call_clobber -call-sig='i64(i64)' -call-args=41");
  EXPECT_EQ(R.output, "return: 42\n");
  // Without conventions the same program computes wrong results.
  std::string Bare = D.file("bare.o");
  ASSERT_EQ(runCommand("llvm-objcopy-22 --remove-section=.linklab.callconv " + Custom + " " + Bare).status, 0);
  // -cc gives the same convention as the section: main runs again.
  R = runCommand(linklabPath() + " -runtime=none " + Caller + " " + Bare + " -cc=" +
                 quote(std::string("add3=i64(i64,i64,i64);") + GetParam().pool) + " -cc=" +
                 quote(std::string("fsub2=f64(f64,f64);") + GetParam().fpr) + " -cc=" +
                 quote(std::string("wsum=i64(i64,i64,i64);") + GetParam().overflow) +
                 " -call=main -call-sig='i32()'");
  // (clobber has no -cc here, so its clobbers are reported after the result)
  EXPECT_EQ(R.output.substr(0, 10), "return: 0\n") << "main's bits of wrong results: " << R.output;
}

TEST_P(CallconvExec, test_foreign_plan_in_section) {
  // A plan made for another target, embedded in this arch's object.
  const char *Other = std::string(GetParam().name) == "x86_64" ? "aarch64-linux-gnu" : "x86_64-linux-gnu";
  auto Sig = callconv::parseSignature("i64(i64)");
  auto Theirs = callconv::targetForTriple(Other);
  auto Ours = callconv::targetForTriple(GetParam().triple);
  ASSERT_TRUE(Sig && Theirs && Ours);
  auto P = callconv::standardPlan(**Theirs, *Sig);
  ASSERT_TRUE(bool(P));
  std::string Src = D.write("foreign.s", std::string(".section .linklab.callconv,\"\",") +
                                             (std::string(GetParam().name) == "aarch64" ? "%" : "@") +
                                             "progbits\n.asciz \"f=i64(i64);" + P->text() + "\"\n");
  std::string Obj = D.file("foreign.o");
  ASSERT_EQ(runCommand("llvm-mc-22 -triple=" + std::string(GetParam().triple) + " -filetype=obj -o " + Obj + " " + Src)
                .status,
            0);
  auto R = runCommand(linklabPath() + " -runtime=none " + Obj + " " + Custom + " -call=add3 -call-args=1,2,3");
  EXPECT_EQ(R.status, 1);
  EXPECT_EQ(R.output, formatv("linklab error: %s: .linklab.callconv entry 0 (offset 0x0): 'f=i64(i64);%s': plan "
                              "belongs to foreign target schema '%s' (%s uses '%s')\n",
                              Obj.c_str(), P->text().c_str(), (*Theirs)->Schema.c_str(), (*Ours)->Name,
                              (*Ours)->Schema.c_str()));
}

INSTANTIATE_TEST_SUITE_P(Arch, CallconvExec, ::testing::ValuesIn(Cases),
                         [](const auto &I) { return std::string(I.param.name); });

} // namespace
