// Calling conventions verified by execution: tests/inputs/callconv/<arch>_custom.s
// (functions that take their arguments in custom registers) assembled at test
// time and called through plans in linklab-executor via `linklab -call`, and
// tests/inputs/callconv/caller.c calling them through bridge thunks (with
// i128, by-value aggregate and sret signatures), the thunk pass's warnings
// and refusals. Every
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
void PrintTo(const ArchCase &C, std::ostream *OS) { *OS << C.name; }
const ArchCase Cases[] = {
    {"x86_64", "x86_64-linux-gnu", "", "", "gpr:rcx,r8,r11;ret:rax", "args:r8,rcx,r11;ret:rax",
     "args:rcx,stack,stack;ret:rdx", "gpr:rcx;ret:rdx", "args:rcx+r8;ret:rax,rdx", "gpr:r10,rcx", "gpr:r9,r10;ret:rax",
     "ret:rcx", "fpr:xmm3,xmm5;ret_fpr:xmm2", "gpr:rdi", "gpr:r10,r11;ret:rax"},
    {"aarch64", "aarch64-linux-gnu", "", "", "gpr:x9,x10,x11;ret:x12", "args:x10,x9,x11;ret:x12",
     "args:x9,stack,stack;ret:x12", "gpr:x9;ret:x12", "args:x9+x10;ret:x12,x13", "gpr:x9", "gpr:x9,x10;ret:x12",
     "ret:x12", "fpr:v20,v21;ret_fpr:v22", "gpr:x0", "gpr:x14,x15;ret:x0"},
    {"riscv64", "riscv64-linux-gnu", "-mattr=+d", "-march=rv64gc", "gpr:t0,t2,t4;ret:t5", "args:t2,t0,t4;ret:t5",
     "args:t0,stack,stack;ret:t5", "gpr:t0;ret:t5", "args:t0+t2;ret:t5,t6", "gpr:t0,t2", "gpr:t0,t2;ret:t5", "ret:t5",
     "fpr:ft4,ft5;ret_fpr:ft6", "gpr:a0", "gpr:t4,t6;ret:a0"},
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

// The conventions caller.c needs, as -cc options (what the section says).
std::string allConventions(const ArchCase &A) {
  const std::string Entries[] = {
      std::string("add3=i64(i64,i64,i64);") + A.pool,      std::string("fsub2=f64(f64,f64);") + A.fpr,
      std::string("wsum=i64(i64,i64,i64);") + A.overflow,  std::string("inc128=i128(i128);") + A.wide,
      std::string("bsum16=i64(byval(16:8));") + A.byval16, std::string("mk3=void(sret(24:8),i64);") + A.sret};
  std::string Out;
  for (auto &E : Entries)
    Out += " -cc=" + quote(E);
  return Out;
}

TEST_P(CallconvExec, test_bridge_thunks_from_c) {
  std::string Caller = compile(D, sourceDir() + "/tests/inputs/callconv/caller.c", GetParam().triple,
                               std::string("-O1 -ffreestanding ") + GetParam().ccFlags, "caller.o");
  auto R = runCommand(linklabPath() + " -runtime=none " + Caller + " " + Custom);
  EXPECT_EQ(R.status, 0) << "number of wrong results: " << R.output;
  // main through the standard plan: right results and every callee-saved
  // register intact across the whole program (thunks, frames, stack alignment).
  R = runCommand(linklabPath() + " -runtime=none " + Caller + " " + Custom + " -call=main -call-sig='i32()'");
  EXPECT_EQ(R.output, "return: 0\n");
  // The thunk keeps the registers the standard ABI promises even though the
  // embedded plan of clobber does not.
  R = runCommand(linklabPath() + " -runtime=none " + Caller + " " + Custom +
                 " -call=call_clobber -call-sig='i64(i64)' -call-args=41");
  EXPECT_EQ(R.output, "return: 42\n");

  // Without conventions (so without thunks) the same program must fail.
  std::string Bare = D.file("bare.o");
  ASSERT_EQ(runCommand("llvm-objcopy-22 --remove-section=.linklab.callconv " + Custom + " " + Bare).status, 0);
  R = runCommand(linklabPath() + " -runtime=none " + Caller + " " + Bare);
  EXPECT_NE(R.status, 0) << R.output;
  // -cc gives the same conventions as the section: main runs clean again...
  std::string Clobber = " -cc=" + quote(std::string("clobber=i64(i64);csr:") +
                                        (std::string(GetParam().name) == "x86_64"    ? "rbp,r13,r14,r15"
                                         : std::string(GetParam().name) == "aarch64" ? "x21,x22,x23,x24,x25,x26,"
                                                                                       "x27,x28,v8,v9,v10,v11,"
                                                                                       "v12,v13,v14,v15"
                                                                                     : "s3,s4,s5,s6,s7,s8,s9,s10,"
                                                                                       "s11,fs0,fs1,fs2,fs3,fs4,"
                                                                                       "fs5,fs6,fs7,fs8,fs9,fs10,"
                                                                                       "fs11"));
  R = runCommand(linklabPath() + " -runtime=none " + Caller + " " + Bare + allConventions(GetParam()) + Clobber +
                 " -call=main -call-sig='i32()'");
  EXPECT_EQ(R.output, "return: 0\n");
  // ...and without clobber's entry, clobber runs bare and the breakage shows:
  // on x86-64 main survives (its results live in memory) and the callee-saved
  // registers it does not save itself are reported clobbered (the r12 report
  // the previous note asked about); on AArch64 and RISC-V main keeps the
  // address of its results in x19/s1, which clobber zeroes, and faults.
  R = runCommand(linklabPath() + " -runtime=none " + Caller + " " + Bare + allConventions(GetParam()) +
                 " -call=main -call-sig='i32()'");
  if (std::string(GetParam().name) == "x86_64")
    EXPECT_EQ(R.output.substr(0, 21), "return: 0\nclobbered: ") << R.output;
  else
    EXPECT_NE(R.output.find("linklab error: call of 'main' through plan: write to unmapped memory"), std::string::npos)
        << R.output;
}

TEST_P(CallconvExec, test_indirect_call_warning_when_run_and_noexec) {
  std::string Src = D.write("ind.c", "long add3(long, long, long);\n"
                                     "long (*volatile FP)(long, long, long) = add3;\n"
                                     "int main(void) { return FP == 0; }\n");
  std::string Obj = compile(D, Src, GetParam().triple, std::string("-O1 ") + GetParam().ccFlags, "ind.o");
  auto T = callconv::targetForTriple(GetParam().triple);
  auto Sig = callconv::parseSignature("i64(i64,i64,i64)");
  ASSERT_TRUE(T && Sig);
  auto P = callconv::materialize(GetParam().pool, *Sig, **T);
  ASSERT_TRUE(bool(P));
  std::string Warning =
      formatv("linklab warning: %s: callconv: address of 'add3' taken for an indirect call: indirect calls use the "
              "standard %s convention, not its convention %s\n",
              Obj.c_str(), (*T)->StandardName, P->convention().str().c_str());
  auto R = runCommand(linklabPath() + " -runtime=none " + Obj + " " + Custom);
  EXPECT_EQ(R.status, 0);
  EXPECT_EQ(R.output, Warning);
  R = runCommand(linklabPath() + " -noexec -no-process-syms -entry=main " + Obj + " " + Custom);
  EXPECT_EQ(R.status, 0);
  EXPECT_EQ(R.output, Warning);
}

TEST_P(CallconvExec, test_thunk_frame_size_refused) {
  // 600 i64 arguments, all but one on the callee's stack: no arch but x86-64
  // can address such a frame from sp with the thunk's encodings.
  std::string Obj = D.file("big.o");
  bool X86 = std::string(GetParam().name) == "x86_64";
  std::string Src = D.write("big.s", std::string(".globl main\nmain: ") +
                                         (X86                                         ? "call big"
                                          : GetParam().name == std::string("aarch64") ? "bl big"
                                                                                      : "call big") +
                                         "\n ret\n");
  ASSERT_EQ(runCommand("llvm-mc-22 -triple=" + std::string(GetParam().triple) + " -filetype=obj -o " + Obj + " " + Src)
                .status,
            0);
  auto Link = [&](unsigned N) {
    std::string Sig = "i64(";
    for (unsigned I = 0; I < N; ++I)
      Sig += I ? ",i64" : "i64";
    Sig += ")";
    std::string First = X86 ? "rcx" : GetParam().name == std::string("aarch64") ? "x9" : "t0";
    return std::make_pair(Sig, runCommand(linklabPath() +
                                          " -noexec -no-process-syms -phony-externals -entry=main -show-graphs=big " +
                                          Obj + " -cc=" + quote("big=" + Sig + ";gpr:" + First)));
  };
  auto [Small, Fits] = Link(20);
  EXPECT_EQ(Fits.status, 0) << Fits.output;
  EXPECT_NE(Fits.output.find("big.ccthunk"), std::string::npos) << Fits.output;
  auto [Sig, R] = Link(600);
  if (X86) {
    EXPECT_EQ(R.status, 0) << R.output.substr(0, 400);
    return;
  }
  EXPECT_EQ(R.status, 1);
  std::string Head = formatv("linklab error: %s: bridge thunk for 'big' (%s): the thunk's frame and the caller's "
                             "stack arguments need sp offsets up to ",
                             Obj.c_str(), Sig.c_str());
  std::string Tail = formatv(", beyond the %d this arch's thunk encoder reaches\n",
                             GetParam().name == std::string("aarch64") ? 4095 : 2047);
  ASSERT_EQ(R.output.substr(0, Head.size()), Head);
  ASSERT_GT(R.output.size(), Head.size() + Tail.size());
  EXPECT_EQ(R.output.substr(R.output.size() - Tail.size()), Tail);
  // The number: past the limit, and at least the 599 stack-bound arguments.
  long long Need = std::stoll(R.output.substr(Head.size()));
  EXPECT_GT(Need, GetParam().name == std::string("aarch64") ? 4095 : 2047);
  EXPECT_GE(Need, 599 * 8);
  EXPECT_EQ(R.output.find('\n'), R.output.size() - 1) << "one line, the error only";
}

TEST(CallconvExecX86, test_sret_thunk_returns_the_pointer_in_rax) {
  // SysV (3.2.3): a function returning through sret hands the address back
  // in rax, and callers may use it. mk3's custom convention leaves 3b there;
  // the thunk must put the pointer back.
  TempDir D;
  std::string Custom = D.file("custom.o"), Caller = D.file("caller.o");
  ASSERT_EQ(runCommand("llvm-mc-22 -triple=x86_64-linux-gnu -filetype=obj -o " + Custom + " " + sourceDir() +
                       "/tests/inputs/callconv/x86_64_custom.s")
                .status,
            0);
  std::string Src = D.write("sretcall.s", ".globl third\n"
                                          "third: sub $40, %rsp\n" // 24-byte buffer, rsp kept 16-aligned
                                          "       mov %rsp, %rdi\n"
                                          "       mov $11, %esi\n"
                                          "       call mk3\n"
                                          "       mov 16(%rax), %rax\n" // third word, through the returned pointer
                                          "       add $40, %rsp\n"
                                          "       ret\n");
  ASSERT_EQ(runCommand("llvm-mc-22 -triple=x86_64-linux-gnu -filetype=obj -o " + Caller + " " + Src).status, 0);
  auto R = runCommand(linklabPath() + " -runtime=none " + Caller + " " + Custom +
                      " -call=third -call-sig='i64()' -call-args=''");
  EXPECT_EQ(R.output, "return: 33\n");
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
  EXPECT_EQ(R.output,
            formatv("linklab error: %s: .linklab.callconv entry 0 (offset 0x0): 'f=i64(i64);%s': plan "
                    "belongs to foreign target schema '%s' (%s uses '%s')\n",
                    Obj.c_str(), P->text().c_str(), (*Theirs)->Schema.c_str(), (*Ours)->Name, (*Ours)->Schema.c_str()));
}

INSTANTIATE_TEST_SUITE_P(Arch, CallconvExec, ::testing::ValuesIn(Cases),
                         [](const auto &I) { return std::string(I.param.name); });

} // namespace
