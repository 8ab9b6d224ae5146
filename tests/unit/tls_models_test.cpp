// Thread-local storage end to end: tests/inputs/tls/tls_models.c compiled in
// each TLS model for each architecture, linked with its C runtime and run in
// the executor, must print and return what the host-compiled program does.
#include "test_support.h"

using namespace linklab::test;

namespace {

struct TLSCase {
  const char *name, *target, *flags;
};

// Each target compiles against its runtime's headers (musl, picolibc).
#define MUSL " -nostdlibinc -isystem /usr/include/x86_64-linux-musl"
#define PICO_A64 " -nostdlibinc -isystem /usr/lib/picolibc/aarch64-linux-gnu/include"
#define PICO_RV " -nostdlibinc -isystem /usr/lib/picolibc/riscv64-unknown-elf/include -mabi=lp64d"

const TLSCase Cases[] = {
    {"x86_64_local_exec", "x86_64-linux-gnu", "-O1 -fno-pic" MUSL},
    {"x86_64_initial_exec", "x86_64-linux-gnu", "-O1 -fPIC -ftls-model=initial-exec" MUSL},
    {"x86_64_general_dynamic", "x86_64-linux-gnu", "-O1 -fPIC" MUSL},
    {"x86_64_local_dynamic", "x86_64-linux-gnu", "-O0 -fPIC -ftls-model=local-dynamic" MUSL},
    {"aarch64_local_exec", "aarch64-linux-gnu", "-O1 -fno-pic" PICO_A64},
    {"aarch64_initial_exec", "aarch64-linux-gnu", "-O1 -fPIC -ftls-model=initial-exec" PICO_A64},
    {"aarch64_tlsdesc", "aarch64-linux-gnu", "-O1 -fPIC" PICO_A64},
    {"riscv64_local_exec", "riscv64-linux-gnu", "-O1 -march=rv64gc -fno-pic" PICO_RV},
    {"riscv64_initial_exec", "riscv64-linux-gnu", "-O1 -march=rv64gc -fPIC -ftls-model=initial-exec" PICO_RV},
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
  std::string Obj = compile(D, Src, C.target, C.flags, "tls.o");
  auto Got = runCommand(linklabPath() + " '" + Obj + "'");
  EXPECT_EQ(Got.output, Want.output) << C.name;
  EXPECT_EQ(Got.status, Want.status) << C.name << "\n" << Got.output;
}

INSTANTIATE_TEST_SUITE_P(Models, TLSModels, ::testing::ValuesIn(Cases),
                         [](const ::testing::TestParamInfo<TLSCase> &I) { return std::string(I.param.name); });

} // namespace
