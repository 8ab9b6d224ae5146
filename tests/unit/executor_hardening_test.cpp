// Guest behaviour that must never abort or stall linklab-executor:
// tests/executor/stress.c (freestanding, raw system calls) run through
// `linklab -runtime=none -entry=<function>` on every architecture, plus the
// RISC-V illegal-instruction PCs. Each function prints what it counted; the
// expected numbers are derived here from the function's loop bounds.
#include "support/error.h"
#include "test_support.h"

using namespace linklab;
using namespace linklab::test;

namespace {

struct ArchCase {
  const char *name, *target, *flags;
};
void PrintTo(const ArchCase &C, std::ostream *OS) { *OS << C.name; }
const ArchCase Cases[] = {
    {"x86_64", "x86_64-linux-gnu", ""},
    {"aarch64", "aarch64-linux-gnu", ""},
    {"riscv64", "riscv64-linux-gnu", "-march=rv64gc"},
};

class ExecutorHardening : public ::testing::TestWithParam<ArchCase> {
protected:
  void SetUp() override {
    Obj = compile(D, sourceDir() + "/tests/executor/stress.c", GetParam().target,
                  std::string(GetParam().flags) + " -O1 -ffreestanding -fno-stack-protector", "stress.o");
  }
  CommandResult run(const std::string &Entry, const std::string &Extra = "") {
    return runCommand(linklabPath() + " -runtime=none -timeout-ms=20000 " + Extra + " -entry=" + Entry + " " + Obj);
  }
  TempDir D;
  std::string Obj;
};

// 64 MiB of heap, one page at a time: 16384 first touches used to add a
// Unicorn region each and abort the executor on AArch64 after about 1000.
TEST_P(ExecutorHardening, test_heap_64mib_touched) {
  auto R = run("touch_heap");
  EXPECT_EQ(R.status, 0) << R.output;
  EXPECT_EQ(R.output, std::to_string((64 << 20) / 4096) + "\n");
}

TEST_P(ExecutorHardening, test_heap_touch_stops_at_memory_cap) {
  auto R = run("touch_heap", "-max-memory=8Mb");
  EXPECT_EQ(R.status, 1) << R.output;
  // The cap is charged per mapped chunk, clipped to what is left, so the
  // first page past 8 MiB is the one refused.
  EXPECT_NE(R.output.find("program memory limit at pc"), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("memory cap of 0x800000 bytes reached touching heap address 0x40800000"), std::string::npos)
      << R.output;
}

TEST_P(ExecutorHardening, test_many_small_mmaps) {
  auto R = run("many_mmaps");
  EXPECT_EQ(R.status, 0) << R.output;
  EXPECT_EQ(R.output, std::to_string(3000 + 3000 / 2) + "\n");
}

TEST_P(ExecutorHardening, test_many_mprotects_refused_not_fatal) {
  auto R = run("mprotect_many");
  EXPECT_EQ(R.status, 0) << R.output;
  EXPECT_EQ(R.output, "refused\n");
}

TEST_P(ExecutorHardening, test_huge_mmap_is_enomem) {
  auto R = run("huge_mmap");
  EXPECT_EQ(R.status, 0) << R.output;
  EXPECT_EQ(R.output, "-12\n");
}

TEST_P(ExecutorHardening, test_huge_mmap_over_cap_is_memory_limit) {
  // 2^46 bytes is refused as a bad size before the cap is consulted; a size
  // inside the mmap area but over the cap ends the run instead.
  auto R = run("many_mmaps", "-max-memory=1Mb");
  EXPECT_EQ(R.status, 1) << R.output;
  EXPECT_NE(R.output.find("program memory limit at pc"), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("exceeds the memory cap of 0x100000 bytes"), std::string::npos) << R.output;
}

TEST_P(ExecutorHardening, test_deep_recursion_is_stack_overflow) {
  auto R = run("recurse");
  EXPECT_EQ(R.status, 139) << R.output; // killed by SIGSEGV, as natively
  EXPECT_NE(R.output.find("write to unmapped memory at pc"), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("(recurse+0x"), std::string::npos) << R.output;
  // Just below the 8 MiB stack that ends at 0xf0000000.
  EXPECT_NE(R.output.find("address 0xef7f"), std::string::npos) << R.output;
}

INSTANTIATE_TEST_SUITE_P(Arch, ExecutorHardening, ::testing::ValuesIn(Cases),
                         [](const auto &I) { return std::string(I.param.name); });

// Illegal RISC-V instructions of both lengths, first in their block and
// after others: the reported PC is the instruction's own address.
TEST(ExecutorRiscvIllegal, test_pc_is_the_instruction) {
  TempDir D;
  std::string Obj = assemble(D, R"(
        .globl c_after, c_reserved, w_after, csr_mmode
c_after:    addi a0, a0, 1
            c.addi a0, 1
            .2byte 0x8002          # c.jr x0: reserved
c_reserved: c.addi a0, 1
            .2byte 0x0000          # all-zero halfword: defined illegal
w_after:    addi a0, a0, 1
            c.addi a0, 1
            .4byte 0xffffffff
csr_mmode:  csrw mhartid, a0       # read-only CSR
)",
                             "riscv64", "ill.o", "-mattr=+c");
  struct Case {
    const char *entry;
    unsigned offset; // of the illegal instruction from its symbol
  } Cases[] = {{"c_after", 4}, {"c_reserved", 2}, {"w_after", 4}, {"csr_mmode", 0}}; // addi is compressed too
  for (const Case &C : Cases) {
    auto R = runCommand(linklabPath() + " -runtime=none -timeout-ms=10000 -entry=" + C.entry + " " + Obj);
    EXPECT_EQ(R.status, 132) << R.output; // killed by SIGILL
    std::string Where = formatv("(%s+0x%x in .text of %s)", C.entry, C.offset, Obj.c_str());
    EXPECT_NE(R.output.find("program illegal instruction at pc 0x"), std::string::npos) << R.output;
    EXPECT_NE(R.output.find(Where), std::string::npos) << C.entry << ": " << R.output;
  }
}

} // namespace
