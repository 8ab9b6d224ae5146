// Thread-local storage end to end: tests/inputs/tls/tls_models.c compiled in
// each TLS model for each architecture, linked with its C runtime and run in
// the executor, must print and return what the host-compiled program does.
#include "test_support.h"

using namespace linklab::test;

namespace {

// Each compiles against its runtime's headers (glibc's): the runtime
// row's flags, then these.
struct TLSCase {
  const char *name;
  linklab::Arch arch;
  const char *flags;
};
using linklab::Arch;

const TLSCase Cases[] = {
    {"x86_64_local_exec", Arch::X86_64, "-O1 -fno-pic"},
    {"x86_64_initial_exec", Arch::X86_64, "-O1 -fPIC -ftls-model=initial-exec"},
    {"x86_64_general_dynamic", Arch::X86_64, "-O1 -fPIC"},
    {"x86_64_local_dynamic", Arch::X86_64, "-O0 -fPIC -ftls-model=local-dynamic"},
    // -fno-plt: __tls_get_addr called through its GOT entry (GOTPCRELX).
    {"x86_64_general_dynamic_noplt", Arch::X86_64, "-O1 -fPIC -fno-plt"},
    {"x86_64_local_dynamic_noplt", Arch::X86_64, "-O0 -fPIC -fno-plt -ftls-model=local-dynamic"},
    {"aarch64_local_exec", Arch::AArch64, "-O1 -fno-pic"},
    {"aarch64_initial_exec", Arch::AArch64, "-O1 -fPIC -ftls-model=initial-exec"},
    {"aarch64_tlsdesc", Arch::AArch64, "-O1 -fPIC"},
    {"riscv64_local_exec", Arch::RISCV64, "-O1 -fno-pic"},
    {"riscv64_initial_exec", Arch::RISCV64, "-O1 -fPIC -ftls-model=initial-exec"},
    {"riscv64_general_dynamic", Arch::RISCV64, "-O1 -fPIC"},
    {"riscv64_local_dynamic", Arch::RISCV64, "-O0 -fPIC -ftls-model=local-dynamic"},
};

void PrintTo(const TLSCase &C, std::ostream *OS) { *OS << C.name; }

class TLSModels : public ::testing::TestWithParam<TLSCase> {};

TEST_P(TLSModels, RunLikeTheHostProgram) {
  const TLSCase &C = GetParam();
  TempDir D;
  std::string Src = sourceDir() + "/tests/inputs/tls/tls_models.c";
  std::string Host = D.file("host");
  auto Build = runCommand("clang-22 -O1 '" + Src + "' -o '" + Host + "'");
  ASSERT_EQ(Build.status, 0) << Build.output;
  auto Want = runCommand("'" + Host + "'");
  std::string Obj = compile(D, Src, std::string(linklab::archName(C.arch)) + "-linux-gnu",
                            runtimeCFlags(C.arch) + " " + C.flags, "tls.o");
  auto Got = runCommand(linklabPath() + " '" + Obj + "'");
  EXPECT_EQ(Got.output, Want.output) << C.name;
  EXPECT_EQ(Got.status, Want.status) << C.name << "\n" << Got.output;
}

INSTANTIATE_TEST_SUITE_P(Models, TLSModels, ::testing::ValuesIn(Cases),
                         [](const ::testing::TestParamInfo<TLSCase> &I) { return std::string(I.param.name); });

} // namespace
