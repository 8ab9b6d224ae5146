// linklab-executor end to end: tests/executor/<arch>_functions.s assembled
// at test time, written into a spawned executor through the protocol, then
// called. One test per behaviour, each for every architecture; every run is
// bounded by the executor's limits.
#include "test_support.h"

#include "protocol/executor_client.h"
#include "protocol/native_transport.h"

#include <gtest/gtest.h>

#include <functional>
#include <optional>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <sys/wait.h>
#include <unistd.h>

using namespace linklab;
using namespace linklab::executor;

namespace {

const std::string Executor = LINKLAB_BINARY_DIR "/emulator/linklab-executor";

struct ArchCase {
  const char *name, *triple, *mcFlags;
  uint16_t arg0, arg1, ret, fp0, fp1;       // DWARF numbers
  uint64_t badReadAt, wrCodeAt, deadReadAt; // offsets of the faulting instruction in their slot
};
void PrintTo(const ArchCase &C, std::ostream *OS) { *OS << C.name; }
const ArchCase Cases[] = {
    {"x86_64", "x86_64-unknown-linux-gnu", "", 5, 4, 0, 17, 18, 5, 7, 0},
    {"aarch64", "aarch64-unknown-linux-gnu", "", 0, 1, 0, 64, 65, 8, 4, 4},
    {"riscv64", "riscv64-unknown-linux-gnu", "-mattr=+d,-relax", 10, 11, 10, 42, 43, 4, 4, 0},
};

enum Slot : uint64_t {
  Add,
  Hello,
  Loop,
  BadRead,
  Illegal,
  Jump,
  Eat,
  Exit,
  WrCode,
  LinuxWrite,
  FAdd,
  StackArg,
  Syscall,
  Poke,
  DeadRead
};
constexpr uint64_t HeapBase = 0x40000000; // exposed as __heap_start

// In a directory of its own: CTest runs these tests in parallel processes.
std::vector<uint8_t> assemble(const ArchCase &C) {
  test::TempDir D;
  std::string Obj = D.file("functions.o"), Bin = D.file("functions.bin");
  auto R = test::runCommand("llvm-mc-22 -triple=" + std::string(C.triple) + " " + C.mcFlags +
                            " -filetype=obj " LINKLAB_SOURCE_DIR "/tests/executor/" + C.name + "_functions.s -o " +
                            Obj + " && llvm-objcopy-22 -O binary --only-section=.text " + Obj + " " + Bin);
  EXPECT_EQ(R.status, 0) << R.output;
  auto Bytes = test::readBytes(Bin);
  return std::vector<uint8_t>(Bytes->begin(), Bytes->end());
}

class ExecutorRun : public ::testing::TestWithParam<ArchCase> {
protected:
  void SetUp() override {
    auto T = spawnExecutor(Executor);
    ASSERT_TRUE(bool(T)) << T.takeError().message();
    Transport = std::move(*T);
    Client = std::make_unique<ExecutorClient>(*Transport);
    Client->setOutputHandler([this](Stream S, std::string_view B) { (S == Stream::Stdout ? Out : Err) += B; });
    auto Info = Client->setupSync(GetParam().triple);
    ASSERT_TRUE(bool(Info)) << Info.takeError().message();
    ASSERT_EQ(Info->pageSize, 0x1000u);
    std::vector<uint8_t> Code = assemble(GetParam());
    ASSERT_GT(Code.size(), 11 * 0x100u);
    bool Done = false;
    Client->reserve(Code.size(), 0x1000, [&](Expected<uint64_t> A) {
      ASSERT_TRUE(bool(A)) << A.takeError().message();
      Base = *A;
      Client->finalize({{Base, ProtRead | ProtExec, Code, 0}}, [&](Error E) {
        EXPECT_FALSE(E) << E.message();
        Done = true;
      });
    });
    ASSERT_FALSE(Client->waitFor(Done));
  }
  void TearDown() override {
    if (Client)
      EXPECT_FALSE(Client->hangupSync());
  }

  void expectFaultAt(Slot S, FaultKind Kind, uint64_t Addr, uint64_t AtOffset);
  // Bytes in a fresh read-write-execute page; its address, 0 on failure.
  uint64_t placeRWX(const std::vector<uint8_t> &Bytes) {
    uint64_t Code = 0;
    bool Done = false;
    Client->reserve(Bytes.size(), 0x1000, [&](Expected<uint64_t> A) {
      if (!A) {
        ADD_FAILURE() << A.takeError().message();
        Done = true;
        return;
      }
      Client->finalize({{*A, ProtRead | ProtWrite | ProtExec, Bytes, 0}}, [&, Base = *A](Error E) {
        EXPECT_FALSE(E) << E.message();
        Code = E ? 0 : Base;
        Done = true;
      });
    });
    EXPECT_FALSE(Client->waitFor(Done));
    return Code;
  }
  RunResultMsg call(Slot S, std::vector<RegValue> Regs, std::vector<uint16_t> Results = {}, Limits L = {},
                    std::vector<uint8_t> Stack = {}) {
    if (!L.wallMillis)
      L.wallMillis = 10000; // a test never waits for the executor's one-minute default
    auto R = Client->callSync(CallMsg{Base + 0x100 * S, std::move(Regs), std::move(Stack), std::move(Results), L});
    EXPECT_TRUE(bool(R)) << R.takeError().message();
    return R ? *R : RunResultMsg{};
  }
  static RegValue u64(uint16_t Dwarf, uint64_t V) {
    RegValue R{Dwarf, std::vector<uint8_t>(8)};
    std::memcpy(R.value.data(), &V, 8);
    return R;
  }
  static uint64_t asU64(const std::vector<uint8_t> &B) {
    uint64_t V = 0;
    std::memcpy(&V, B.data(), std::min<size_t>(8, B.size()));
    return V;
  }

  std::unique_ptr<FdTransport> Transport;
  std::unique_ptr<ExecutorClient> Client;
  uint64_t Base = 0;
  std::string Out, Err;
};

TEST_P(ExecutorRun, test_call_returns_value) {
  const ArchCase &C = GetParam();
  RunResultMsg R = call(Add, {u64(C.arg0, 40), u64(C.arg1, 2)}, {C.ret});
  ASSERT_EQ(R.runStatus(), RunStatus::Returned) << R.message;
  EXPECT_EQ(R.value, 42);
  ASSERT_EQ(R.results.size(), 1u);
  EXPECT_EQ(R.results[0].dwarf, C.ret);
  EXPECT_EQ(asU64(R.results[0].value), 42u);
}

TEST_P(ExecutorRun, test_call_fp_registers) {
  const ArchCase &C = GetParam();
  double A = 1.5, B = 2.25;
  RegValue RA{C.fp0, std::vector<uint8_t>(8)}, RB{C.fp1, std::vector<uint8_t>(8)};
  std::memcpy(RA.value.data(), &A, 8), std::memcpy(RB.value.data(), &B, 8);
  RunResultMsg R = call(FAdd, {RA, RB}, {C.fp0});
  ASSERT_EQ(R.runStatus(), RunStatus::Returned) << R.message;
  ASSERT_EQ(R.results.size(), 1u);
  double Sum;
  std::memcpy(&Sum, R.results[0].value.data(), 8);
  EXPECT_EQ(Sum, 3.75);
}

TEST_P(ExecutorRun, test_call_stack_argument) {
  uint64_t V = 0x1122334455667788;
  std::vector<uint8_t> Stack(16);
  std::memcpy(Stack.data(), &V, 8);
  RunResultMsg R = call(StackArg, {}, {}, {}, Stack);
  ASSERT_EQ(R.runStatus(), RunStatus::Returned) << R.message;
  EXPECT_EQ(uint64_t(R.value), V);
}

TEST_P(ExecutorRun, test_stdout_streams_semihosting_or_syscall) {
  RunResultMsg R = call(Hello, {});
  ASSERT_EQ(R.runStatus(), RunStatus::Returned) << R.message;
  EXPECT_EQ(R.value, 7);
  EXPECT_EQ(Out, "hello\n");
}

TEST_P(ExecutorRun, test_stdout_streams_linux_write) {
  RunResultMsg R = call(LinuxWrite, {});
  ASSERT_EQ(R.runStatus(), RunStatus::Returned) << R.message;
  EXPECT_EQ(R.value, 7);
  EXPECT_EQ(Out, "hello\n");
}

TEST_P(ExecutorRun, test_exit_group) {
  RunResultMsg R = call(Exit, {});
  EXPECT_EQ(R.runStatus(), RunStatus::Exited) << R.message;
  EXPECT_EQ(R.value, 3);
  auto Code = Client->exitCode(R);
  ASSERT_TRUE(bool(Code));
  EXPECT_EQ(*Code, 3);
}

TEST_P(ExecutorRun, test_run_main_args) {
  // main(argc, argv) on the add slot returns argc + argv: argv must be a
  // stack address laid out by the executor.
  auto R = Client->runMainSync(Base + 0x100 * Add, {"prog", "a", "b"}, {0, 10000, 0});
  ASSERT_TRUE(bool(R)) << R.takeError().message();
  ASSERT_EQ(R->runStatus(), RunStatus::Returned) << R->message;
  uint64_t Argv = uint64_t(R->value) - 3;
  auto Read = [&](uint64_t Addr, uint64_t Size) {
    auto B = Client->sync<std::vector<uint8_t>>(
        [&](Callback<std::vector<uint8_t>> Done) { Client->readMemory(Addr, Size, Done); });
    EXPECT_TRUE(bool(B)) << B.takeError().message();
    return B ? *B : std::vector<uint8_t>(Size);
  };
  std::vector<uint8_t> Words = Read(Argv, 32);
  uint64_t P[4];
  std::memcpy(P, Words.data(), 32);
  EXPECT_EQ(P[3], 0u); // argv[argc] == NULL
  const char *Want[3] = {"prog", "a", "b"};
  for (int I = 0; I < 3; ++I) {
    std::vector<uint8_t> S = Read(P[I], std::strlen(Want[I]) + 1);
    EXPECT_EQ(std::string(S.begin(), S.end()), std::string(Want[I], std::strlen(Want[I]) + 1)) << "argv[" << I << "]";
  }
}

TEST_P(ExecutorRun, test_instruction_budget) {
  RunResultMsg R = call(Loop, {}, {}, {1000, 10000, 0});
  EXPECT_EQ(R.runStatus(), RunStatus::InstructionLimit) << R.message;
  EXPECT_EQ(R.message, "instruction budget of 1000 spent");
  auto Code = Client->exitCode(R);
  ASSERT_FALSE(bool(Code));
  EXPECT_NE(Code.takeError().message().find("instruction limit at pc"), std::string::npos);
}

// Code translated in a run without a budget is translated again, counted,
// in one with a budget (FastStores::dropAllTranslations): the budget ends
// the loop, not the wall-time limit.
TEST_P(ExecutorRun, test_instruction_budget_after_a_run_without) {
  ASSERT_EQ(call(Loop, {}, {}, {0, 100, 0}).runStatus(), RunStatus::TimeLimit);
  RunResultMsg R = call(Loop, {}, {}, {1000, 5000, 0});
  EXPECT_EQ(R.runStatus(), RunStatus::InstructionLimit) << R.message;
}

TEST_P(ExecutorRun, test_wall_time_limit) {
  RunResultMsg R = call(Loop, {}, {}, {0, 200, 0});
  EXPECT_EQ(R.runStatus(), RunStatus::TimeLimit) << R.message;
  EXPECT_NE(R.message.find("wall-time limit of 200 ms reached"), std::string::npos) << R.message;
  EXPECT_EQ(R.pc, Base + 0x100 * Loop);
}

TEST_P(ExecutorRun, test_memory_cap) {
  RunResultMsg R = call(Eat, {u64(GetParam().arg0, HeapBase)}, {}, {0, 10000, 64 << 10});
  EXPECT_EQ(R.runStatus(), RunStatus::MemoryLimit) << R.message;
  // 16 pages fit in 64 KiB; the 17th touch is refused.
  EXPECT_EQ(R.message, "memory cap of 0x10000 bytes reached touching heap address 0x40010000");
}

// Slot S faults (Kind, at Addr) at the instruction AtOffset into the slot,
// not the start of its block, with or without an instruction budget (the
// counting hook knows it; without one, the direct access's host fault is
// traced back to it, emulator/direct_memory.cpp).
void ExecutorRun::expectFaultAt(Slot S, FaultKind Kind, uint64_t Addr, uint64_t AtOffset) {
  for (uint64_t Budget : {0, 1000000}) {
    SCOPED_TRACE(Budget ? "budget" : "no budget");
    RunResultMsg R = call(S, {}, {}, {Budget, 0, 0});
    ASSERT_EQ(R.runStatus(), RunStatus::Fault) << R.message;
    EXPECT_EQ(FaultKind(R.faultKind), Kind);
    EXPECT_EQ(R.address, Addr);
    EXPECT_EQ(R.pc, Base + 0x100 * S + AtOffset);
  }
}

TEST_P(ExecutorRun, test_fault_bad_read) {
  expectFaultAt(BadRead, FaultKind::ReadUnmapped, 0xdead000, GetParam().badReadAt);
  RunResultMsg R = call(BadRead, {});
  Client->setSymbolizer([&](uint64_t A) { return A == R.pc ? std::string("f_badread+0x") : std::string(); });
  EXPECT_EQ(Client->describe(R),
            formatv("read of unmapped memory at pc %s (f_badread+0x), address 0xdead000", hex(R.pc).c_str()));
}

// A load whose value the code overwrites unused still faults.
TEST_P(ExecutorRun, test_fault_unused_load) {
  expectFaultAt(DeadRead, FaultKind::ReadUnmapped, 0x100, GetParam().deadReadAt);
}

// Stores through wild pointers, in runs without a budget (translated code
// reaches memory directly, emulator/direct_memory.cpp): each is a fault
// naming the pointer itself, including small negative ones, which the host
// sees in its kernel half.
TEST_P(ExecutorRun, test_fault_wild_stores) {
  for (uint64_t Addr : {uint64_t(0), uint64_t(0xdead000), uint64_t(-8), uint64_t(0x3000000000), uint64_t(0x1008)}) {
    SCOPED_TRACE(hex(Addr));
    RunResultMsg R = call(Poke, {u64(GetParam().arg0, Addr), u64(GetParam().arg1, 1)});
    ASSERT_EQ(R.runStatus(), RunStatus::Fault) << R.message;
    // Above 4 GiB, with nothing mapped that high, the fault names the
    // address's low 32 bits (emulator/direct_memory.cpp).
    EXPECT_EQ(R.address, Addr == 0x3000000000 ? 0 : Addr);
    EXPECT_EQ(R.pc, Base + 0x100 * Poke);
    // 0x1008: the return trap page, mapped read-only and executable.
    EXPECT_EQ(FaultKind(R.faultKind), Addr == 0x1008 ? FaultKind::WriteProtected : FaultKind::WriteUnmapped);
  }
  RunResultMsg R = call(Add, {u64(GetParam().arg0, 2), u64(GetParam().arg1, 3)});
  ASSERT_EQ(R.runStatus(), RunStatus::Returned) << R.message; // the session goes on
  EXPECT_EQ(R.value, 5);
}

TEST_P(ExecutorRun, test_fault_write_protected) {
  expectFaultAt(WrCode, FaultKind::WriteProtected, Base + 0x100 * WrCode, GetParam().wrCodeAt);
}

TEST_P(ExecutorRun, test_fault_illegal_instruction) {
  RunResultMsg R = call(Illegal, {});
  ASSERT_EQ(R.runStatus(), RunStatus::Fault) << R.message;
  EXPECT_EQ(FaultKind(R.faultKind), FaultKind::IllegalInstruction);
  EXPECT_EQ(R.pc, Base + 0x100 * Illegal);
}

TEST_P(ExecutorRun, test_fault_jump_unmapped) {
  RunResultMsg R = call(Jump, {});
  ASSERT_EQ(R.runStatus(), RunStatus::Fault) << R.message;
  EXPECT_EQ(FaultKind(R.faultKind), FaultKind::FetchUnmapped);
  EXPECT_EQ(R.pc, 0x12340000u);
  EXPECT_EQ(R.address, 0x12340000u);
}

TEST_P(ExecutorRun, test_runs_after_fault) {
  // A fault ends the run, not the process: the next call works.
  call(BadRead, {});
  RunResultMsg R = call(Add, {u64(GetParam().arg0, 1), u64(GetParam().arg1, 2)});
  EXPECT_EQ(R.runStatus(), RunStatus::Returned) << R.message;
  EXPECT_EQ(R.value, 3);
}

TEST_P(ExecutorRun, test_request_errors_keep_session) {
  bool Done = false;
  Client->deallocate({0x1234000}, [&](Error E) {
    EXPECT_EQ(E.message(), "deallocate: no reservation at 0x1234000");
    Done = true;
  });
  ASSERT_FALSE(Client->waitFor(Done));
  RunResultMsg R = call(Add, {u64(999, 1)});
  EXPECT_EQ(R.runStatus(), RunStatus::Error);
  EXPECT_EQ(R.message, formatv("%s has no register with DWARF number 999", GetParam().name));
}

TEST_P(ExecutorRun, test_tls_thread_pointer) {
  bool Done = false;
  Client->setupTLS(SetupTLSMsg{{1, 2, 3, 4}, 64, 16}, [&](Expected<TLSResultMsg> R) {
    ASSERT_TRUE(bool(R)) << R.takeError().message();
    EXPECT_EQ(R->threadPointer % 16, 0u);
    Client->readMemory(R->block, 4, [&](Expected<std::vector<uint8_t>> B) {
      ASSERT_TRUE(bool(B));
      EXPECT_EQ(*B, (std::vector<uint8_t>{1, 2, 3, 4}));
      Done = true;
    });
  });
  ASSERT_FALSE(Client->waitFor(Done));
}

// Guest code that rewrites guest code: the executor replaces Unicorn 2.0's
// per-store page bookkeeping (emulator/unicorn_quirks.cpp), and the
// invalidation of translated code on a written page must survive that.
// One writable and executable page holds `Get` (returns 1) at 0 and `Poke`
// at 0x10 (stores arg1's low 32 bits at arg0 + patchAt); poking the
// encoding of "return 2" into Get must change what the next call returns.
// `ownBlock` patches the "return 1" after its store into "return 2" and runs
// it: at once on x86-64; after the instruction-cache maintenance the
// architecture asks for on AArch64 and RISC-V (which also end QEMU's block).
struct SelfModifying {
  std::vector<uint8_t> get, poke;
  uint32_t patchAt, returnTwo;
  std::vector<uint8_t> ownBlock;
};
const std::map<std::string, SelfModifying> SelfModifyingCode = {
    // mov $1, %eax; ret | mov %esi, (%rdi); ret -- patches mov's imm32
    // own block: movb $2, patch+1(%rip); patch: movl $1, %eax; ret
    {"x86_64",
     {{0xb8, 1, 0, 0, 0, 0xc3},
      {0x89, 0x37, 0xc3},
      1,
      2,
      {0xc6, 0x05, 0x01, 0x00, 0x00, 0x00, 0x02, 0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3}}},
    // mov w0, #1; ret | str w1, [x0]; ret
    // own block: adr x1, patch; ldr w2, new; str w2, [x1]; dc cvau, x1; dsb ish; ic ivau, x1; dsb ish; isb;
    //   patch: mov w0, #1; ret; new: mov w0, #2
    {"aarch64",
     {{0x20, 0x00, 0x80, 0x52, 0xc0, 0x03, 0x5f, 0xd6},
      {0x01, 0x00, 0x00, 0xb9, 0xc0, 0x03, 0x5f, 0xd6},
      0,
      0x52800040,
      {0x01, 0x01, 0x00, 0x10, 0x22, 0x01, 0x00, 0x18, 0x22, 0x00, 0x00, 0xb9, 0x21, 0x7b, 0x0b,
       0xd5, 0x9f, 0x3b, 0x03, 0xd5, 0x21, 0x75, 0x0b, 0xd5, 0x9f, 0x3b, 0x03, 0xd5, 0xdf, 0x3f,
       0x03, 0xd5, 0x20, 0x00, 0x80, 0x52, 0xc0, 0x03, 0x5f, 0xd6, 0x40, 0x00, 0x80, 0x52}}},
    // li a0, 1; ret | sw a1, 0(a0); ret
    // own block: auipc a1, 0; lw a2, 24(a1); sw a2, 16(a1); fence.i; li a0, 1; ret; li a0, 2
    {"riscv64",
     {{0x13, 0x05, 0x10, 0x00, 0x67, 0x80, 0x00, 0x00},
      {0x23, 0x20, 0xb5, 0x00, 0x67, 0x80, 0x00, 0x00},
      0,
      0x00200513,
      {0x97, 0x05, 0x00, 0x00, 0x03, 0xa6, 0x85, 0x01, 0x23, 0xa8, 0xc5, 0x00, 0x0f, 0x10,
       0x00, 0x00, 0x13, 0x05, 0x10, 0x00, 0x67, 0x80, 0x00, 0x00, 0x13, 0x05, 0x20, 0x00}}},
};

TEST_P(ExecutorRun, test_self_modifying_code_is_retranslated) {
  const ArchCase &C = GetParam();
  const SelfModifying &S = SelfModifyingCode.at(C.name);
  std::vector<uint8_t> Page(0x20);
  std::copy(S.get.begin(), S.get.end(), Page.begin());
  std::copy(S.poke.begin(), S.poke.end(), Page.begin() + 0x10);
  uint64_t Code = placeRWX(Page);
  ASSERT_NE(Code, 0u);
  auto Call = [&](uint64_t Entry, std::vector<RegValue> Regs) {
    Limits L;
    L.wallMillis = 10000;
    auto R = Client->callSync(CallMsg{Entry, std::move(Regs), {}, {}, L});
    EXPECT_TRUE(bool(R)) << R.takeError().message();
    return R ? *R : RunResultMsg{};
  };
  RunResultMsg R = Call(Code, {});
  ASSERT_EQ(R.runStatus(), RunStatus::Returned) << R.message;
  ASSERT_EQ(R.value, 1); // Get is translated now
  R = Call(Code + 0x10, {u64(C.arg0, Code + S.patchAt), u64(C.arg1, S.returnTwo)});
  ASSERT_EQ(R.runStatus(), RunStatus::Returned) << R.message;
  R = Call(Code, {});
  ASSERT_EQ(R.runStatus(), RunStatus::Returned) << R.message;
  EXPECT_EQ(R.value, 2);
}

// A store into the block that is running it: the rest of the block must
// run the new code (with or without a budget).
TEST_P(ExecutorRun, test_code_rewriting_its_own_block) {
  for (uint64_t Budget : {0, 1000000}) {
    SCOPED_TRACE(Budget ? "budget" : "no budget");
    uint64_t Code = placeRWX(SelfModifyingCode.at(GetParam().name).ownBlock);
    ASSERT_NE(Code, 0u);
    Limits L;
    L.wallMillis = 10000;
    L.instructions = Budget;
    auto R = Client->callSync(CallMsg{Code, {}, {}, {}, L});
    ASSERT_TRUE(bool(R)) << R.takeError().message();
    ASSERT_EQ(R->runStatus(), RunStatus::Returned) << R->message;
    EXPECT_EQ(R->value, 2);
  }
}

// Pages whose permissions change under guest stores. The executor lets
// stores to pages that were never executable skip Unicorn 2.0's not-dirty
// check (emulator/unicorn_quirks.cpp); these check that code written by
// such stores is translated afresh once its page turns executable (directly
// or via RWX, the unicorn #2367 case), that code translated once is still
// invalidated by stores made while its page was read-write again, and that
// write protection and unmapping still stop stores.
struct LinuxAbi {
  uint16_t number, args[3]; // DWARF numbers of the syscall number and first arguments
  uint64_t mmap, mprotect;
};
const std::map<std::string, LinuxAbi> Linux = {
    {"x86_64", {0, {5, 4, 1}, 9, 10}},         // rax; rdi, rsi, rdx (flags in r10: set below)
    {"aarch64", {8, {0, 1, 2}, 222, 226}},     // x8; x0-x2
    {"riscv64", {17, {10, 11, 12}, 222, 226}}, // a7; a0-a2
};
// "return N" as the instruction word (or x86-64 mov's imm32) poked over Get.
uint32_t returnN(const std::string &Arch, uint32_t N) {
  return Arch == "x86_64" ? N : Arch == "aarch64" ? 0x52800000 | N << 5 : 0x00000513 | N << 20;
}

class ExecutorPages : public ExecutorRun {
protected:
  int64_t sys(uint64_t Nr, uint64_t A0, uint64_t A1, uint64_t A2, uint64_t Flags = 0) {
    const LinuxAbi &L = Linux.at(GetParam().name);
    // mmap's flags and fd: r10/r8 on x86-64, x3/x4 and a3/a4 elsewhere.
    bool X86 = std::string(GetParam().name) == "x86_64";
    uint16_t FlagsReg = X86 ? 10 : L.args[0] + 3, FdReg = X86 ? 8 : L.args[0] + 4;
    RunResultMsg R = call(Syscall, {u64(L.number, Nr), u64(L.args[0], A0), u64(L.args[1], A1), u64(L.args[2], A2),
                                    u64(FlagsReg, Flags), u64(FdReg, uint64_t(-1))});
    EXPECT_EQ(R.runStatus(), RunStatus::Returned) << R.message;
    return R.value;
  }
  uint64_t mmapPage(uint32_t Prot) {
    int64_t M = sys(Linux.at(GetParam().name).mmap, 0, 0x1000, Prot, 0x22 /*MAP_PRIVATE|MAP_ANONYMOUS*/);
    EXPECT_GT(M, 0);
    return uint64_t(M);
  }
  void protect(uint64_t Page, uint32_t Prot) {
    EXPECT_EQ(sys(Linux.at(GetParam().name).mprotect, Page, 0x1000, Prot), 0);
  }
  RunResultMsg poke(uint64_t At, uint32_t V) { return call(Poke, {u64(GetParam().arg0, At), u64(GetParam().arg1, V)}); }
  // Writes Get ("return 1", padded to whole words) with guest stores.
  void pokeGet(uint64_t Page) {
    std::vector<uint8_t> Get = SelfModifyingCode.at(GetParam().name).get;
    Get.resize(8, 0x90); // x86-64 nops after `ret`; the others are 8 bytes already
    for (size_t I = 0; I < Get.size(); I += 4) {
      uint32_t W;
      std::memcpy(&W, &Get[I], 4);
      ASSERT_EQ(poke(Page + I, W).runStatus(), RunStatus::Returned);
    }
  }
  void pokeReturn(uint64_t Page, uint32_t N) {
    const char *A = GetParam().name;
    ASSERT_EQ(poke(Page + SelfModifyingCode.at(A).patchAt, returnN(A, N)).runStatus(), RunStatus::Returned);
  }
  int64_t run(uint64_t Page) {
    Limits L;
    L.wallMillis = 10000;
    auto R = Client->callSync(CallMsg{Page, {}, {}, {}, L});
    if (!R) {
      ADD_FAILURE() << R.takeError().message();
      return -1;
    }
    EXPECT_EQ(R->runStatus(), RunStatus::Returned) << R->message;
    return R->value;
  }
};

// read(0) asks the client (input-request, answered by an input message); a
// request the client sends meanwhile is served after the run, in order.
TEST_P(ExecutorPages, test_stdin_read_from_the_client) {
  const uint64_t Read = std::string(GetParam().name) == "x86_64" ? 0 : 63;
  uint64_t Page = mmapPage(3);
  std::vector<uint32_t> Asked;
  std::optional<Expected<std::vector<uint64_t>>> Looked;
  Client->setInputHandler([&](uint32_t Max) {
    Asked.push_back(Max);
    if (Asked.size() > 1)
      return std::vector<uint8_t>(); // end of file
    Client->lookup({"__heap_start"}, [&](Expected<std::vector<uint64_t>> R) { Looked.emplace(std::move(R)); });
    return std::vector<uint8_t>{'h', 'e', 'l', 'l', 'o'};
  });
  EXPECT_EQ(sys(Read, 0, Page, 16), 5);
  EXPECT_EQ(sys(Read, 0, Page + 8, 16), 0);
  EXPECT_EQ(Asked, (std::vector<uint32_t>{16, 16}));
  bool Done = false;
  Client->readMemory(Page, 5, [&](Expected<std::vector<uint8_t>> B) {
    ASSERT_TRUE(bool(B)) << B.takeError().message();
    EXPECT_EQ(std::string(B->begin(), B->end()), "hello");
    Done = true;
  });
  ASSERT_FALSE(Client->waitFor(Done));
  ASSERT_TRUE(Looked.has_value());
  ASSERT_TRUE(bool(*Looked)) << Looked->takeError().message();
  EXPECT_EQ(**Looked, (std::vector<uint64_t>{HeapBase}));
}

TEST_P(ExecutorPages, test_code_stored_then_made_executable_is_retranslated) {
  constexpr uint32_t R = 1, W = 2, X = 4;
  for (uint32_t Exec : {R | X, R | W | X}) {
    SCOPED_TRACE(Exec == (R | X) ? "RX" : "RWX");
    uint64_t Page = mmapPage(R | W);
    pokeGet(Page); // fast stores: the page was never executable
    protect(Page, Exec);
    EXPECT_EQ(run(Page), 1);
    if (Exec & W) {
      pokeReturn(Page, 2); // written while executable: must invalidate Get
    } else {
      protect(Page, R | W);
      pokeReturn(Page, 2); // Get's translation outlives the RW period
      protect(Page, Exec);
    }
    EXPECT_EQ(run(Page), 2);
    protect(Page, R | W); // and once more through a read-write period
    pokeReturn(Page, 3);
    protect(Page, Exec);
    EXPECT_EQ(run(Page), 3);
  }
}

TEST_P(ExecutorPages, test_fast_stores_stop_at_write_protection) {
  constexpr uint32_t R = 1, W = 2;
  uint64_t Page = mmapPage(R | W);
  ASSERT_EQ(poke(Page, 7).runStatus(), RunStatus::Returned);
  protect(Page, R);
  RunResultMsg F = call(Poke, {u64(GetParam().arg0, Page), u64(GetParam().arg1, 8)}, {}, {1000000, 0, 0});
  ASSERT_EQ(F.runStatus(), RunStatus::Fault) << F.message;
  EXPECT_EQ(FaultKind(F.faultKind), FaultKind::WriteProtected);
  EXPECT_EQ(F.address, Page);
  protect(Page, R | W);
  ASSERT_EQ(poke(Page + 4, 9).runStatus(), RunStatus::Returned);
  bool Done = false;
  Client->readMemory(Page, 8, [&](Expected<std::vector<uint8_t>> B) {
    ASSERT_TRUE(bool(B)) << B.takeError().message();
    EXPECT_EQ(*B, (std::vector<uint8_t>{7, 0, 0, 0, 9, 0, 0, 0}));
    Done = true;
  });
  ASSERT_FALSE(Client->waitFor(Done));
}

// The same through the linker's side of the protocol: a finalized data
// segment, re-finalized read-only, then released.
TEST_P(ExecutorPages, test_fast_stores_stop_at_refinalize_and_deallocate) {
  uint64_t Data = 0;
  bool Done = false;
  Client->reserve(0x1000, 0x1000, [&](Expected<uint64_t> A) {
    ASSERT_TRUE(bool(A)) << A.takeError().message();
    Data = *A;
    Client->finalize({{Data, ProtRead | ProtWrite, {1, 2, 3, 4}, 0}}, [&](Error E) {
      EXPECT_FALSE(E) << E.message();
      Done = true;
    });
  });
  ASSERT_FALSE(Client->waitFor(Done));
  ASSERT_EQ(poke(Data, 5).runStatus(), RunStatus::Returned);
  Done = false;
  Client->finalize({{Data, ProtRead, {6, 0, 0, 0}, 0}}, [&](Error E) {
    EXPECT_FALSE(E) << E.message();
    Done = true;
  });
  ASSERT_FALSE(Client->waitFor(Done));
  RunResultMsg F = call(Poke, {u64(GetParam().arg0, Data), u64(GetParam().arg1, 8)}, {}, {1000000, 0, 0});
  ASSERT_EQ(F.runStatus(), RunStatus::Fault) << F.message;
  EXPECT_EQ(FaultKind(F.faultKind), FaultKind::WriteProtected);
  Done = false;
  Client->deallocate({Data}, [&](Error E) {
    EXPECT_FALSE(E) << E.message();
    Done = true;
  });
  ASSERT_FALSE(Client->waitFor(Done));
  F = call(Poke, {u64(GetParam().arg0, Data), u64(GetParam().arg1, 8)}, {}, {1000000, 0, 0});
  ASSERT_EQ(F.runStatus(), RunStatus::Fault) << F.message;
  EXPECT_EQ(FaultKind(F.faultKind), FaultKind::WriteUnmapped);
}

// A direct jump from one page to another: the executor chains the two
// blocks as qemu-user does (emulator/block_chaining.cpp), so taking the
// target's execute permission away, rewriting it, or unmapping it must undo
// the chain, not leave the jump running the old code.
TEST_P(ExecutorPages, test_cross_page_jump_follows_its_target) {
  constexpr uint32_t R = 1, W = 2, X = 4;
  const std::string Arch = GetParam().name;
  uint64_t From = mmapPage(R | W), To = mmapPage(R | W);
  // jmp rel32 (and nops) | b imm26 | jal x0, imm20
  int64_t Off = int64_t(To - From);
  std::vector<uint32_t> Jump;
  if (Arch == "x86_64") {
    uint32_t Rel = uint32_t(Off - 5);
    Jump = {0xe9 | Rel << 8, Rel >> 24 | 0x90909000};
  } else if (Arch == "aarch64") {
    Jump = {0x14000000 | (uint32_t(Off >> 2) & 0x3ffffff)};
  } else {
    uint32_t I = uint32_t(Off);
    Jump = {0x6f | (I >> 12 & 0xff) << 12 | (I >> 11 & 1) << 20 | (I >> 1 & 0x3ff) << 21 | (I >> 20 & 1) << 31};
  }
  for (size_t I = 0; I < Jump.size(); ++I)
    ASSERT_EQ(poke(From + 4 * I, Jump[I]).runStatus(), RunStatus::Returned);
  pokeGet(To);
  protect(From, R | X);
  protect(To, R | X);
  // The translator shows where it keeps the PC in a same-page jump first.
  ASSERT_EQ(call(Loop, {}, {}, {1000, 10000, 0}).runStatus(), RunStatus::InstructionLimit);
  EXPECT_EQ(run(From), 1);
  EXPECT_EQ(run(From), 1); // through the chained jump now
  protect(To, R);
  Limits L;
  L.wallMillis = 10000;
  auto F = Client->callSync(CallMsg{From, {}, {}, {}, L});
  ASSERT_TRUE(bool(F)) << F.takeError().message();
  ASSERT_EQ(F->runStatus(), RunStatus::Fault) << F->message;
  EXPECT_EQ(FaultKind(F->faultKind), FaultKind::FetchProtected);
  EXPECT_EQ(F->address, To);
  protect(To, R | W);
  pokeReturn(To, 2);
  protect(To, R | X);
  EXPECT_EQ(run(From), 2);
  EXPECT_EQ(run(From), 2);
  EXPECT_EQ(sys(Arch == "x86_64" ? 11 : 215, To, 0x1000, 0), 0); // munmap
  F = Client->callSync(CallMsg{From, {}, {}, {}, L});
  ASSERT_TRUE(bool(F)) << F.takeError().message();
  ASSERT_EQ(F->runStatus(), RunStatus::Fault) << F->message;
  // The page goes back to the mmap arena, read-write: no longer executable.
  EXPECT_EQ(FaultKind(F->faultKind), FaultKind::FetchProtected);
  EXPECT_EQ(F->address, To);
}

// An indirect jump caches the first target it takes (block_chaining.cpp):
// another target must still be reached, and so must the first one's new
// code once it is rewritten.
TEST_P(ExecutorPages, test_indirect_jump_reaches_every_target) {
  constexpr uint32_t R = 1, W = 2, X = 4;
  const std::string Arch = GetParam().name;
  // jmp *%rdi | br x0 | jr a0
  uint32_t Jump = Arch == "x86_64" ? 0x9090e7ff : Arch == "aarch64" ? 0xd61f0000 : 0x00050067;
  uint64_t From = mmapPage(R | W), One = mmapPage(R | W), Two = mmapPage(R | W);
  ASSERT_EQ(poke(From, Jump).runStatus(), RunStatus::Returned);
  pokeGet(One);
  pokeGet(Two);
  pokeReturn(Two, 2);
  for (uint64_t Page : {From, One, Two})
    protect(Page, R | X);
  // The translator shows where it keeps the PC in a same-page jump first.
  ASSERT_EQ(call(Loop, {}, {}, {1000, 10000, 0}).runStatus(), RunStatus::InstructionLimit);
  auto Via = [&](uint64_t Target) -> int64_t {
    Limits L;
    L.wallMillis = 10000;
    auto Ret = Client->callSync(CallMsg{From, {u64(GetParam().arg0, Target)}, {}, {}, L});
    if (!Ret) {
      ADD_FAILURE() << Ret.takeError().message();
      return -1;
    }
    EXPECT_EQ(Ret->runStatus(), RunStatus::Returned) << Ret->message;
    return Ret->value;
  };
  for (int Round = 0; Round < 2; ++Round) {
    EXPECT_EQ(Via(One), 1);
    EXPECT_EQ(Via(Two), 2);
  }
  protect(One, R | W);
  pokeReturn(One, 3);
  protect(One, R | X);
  EXPECT_EQ(Via(One), 3);
  EXPECT_EQ(Via(Two), 2);
}

INSTANTIATE_TEST_SUITE_P(Arch, ExecutorPages, ::testing::ValuesIn(Cases),
                         [](const auto &I) { return std::string(I.param.name); });

INSTANTIATE_TEST_SUITE_P(Arch, ExecutorRun, ::testing::ValuesIn(Cases),
                         [](const auto &I) { return std::string(I.param.name); });

// ---- debugged runs (PROTOCOL.md, Debugging) ------------------------------------

class ExecutorDebug : public ExecutorRun {
protected:
  using Script = std::function<std::optional<DebugResumeMsg>(const DebugStopMsg &Last)>;
  // A debugged run-main of slot S: Answer answers each debug-stop (nullopt
  // leaves it unanswered); Stops collects them. At most 64 stops: then it is killed.
  RunResultMsg debugRun(Slot S, Script Answer, uint32_t IdleMillis = 0) {
    Client->setDebugHandler([&](uint32_t Seq, DebugStopMsg M) {
      Stops.push_back(M);
      std::optional<DebugResumeMsg> R = Stops.size() > 64 ? DebugResumeMsg{uint8_t(DebugAction::Kill)} : Answer(M);
      if (R)
        EXPECT_FALSE(Client->debugResume(Seq, std::move(*R)));
    });
    Client->debugNextRun(IdleMillis);
    Limits L;
    L.wallMillis = 10000;
    auto R = Client->runMainSync(Base + 0x100 * S, {"prog"}, L);
    Client->setDebugHandler(nullptr);
    EXPECT_TRUE(bool(R)) << R.takeError().message();
    return R ? *R : RunResultMsg{};
  }
  static DebugResumeMsg resume(DebugAction A, std::vector<uint64_t> Breakpoints = {}) {
    return DebugResumeMsg{uint8_t(A), std::move(Breakpoints)};
  }
  static StopReason reason(const DebugStopMsg &M) { return StopReason(M.reason); }
  std::vector<DebugStopMsg> Stops;
};

// Stopped at its first instruction with the general registers and the
// stack; a read answers with the code's bytes; a step moves on one
// instruction; continuing runs to the end, output and result as undebugged.
TEST_P(ExecutorDebug, test_debug_entry_read_step_continue) {
  const uint64_t Entry = Base + 0x100 * Hello;
  RunResultMsg R = debugRun(Hello, [&](const DebugStopMsg &M) -> std::optional<DebugResumeMsg> {
    if (Stops.size() == 1)
      return DebugResumeMsg{uint8_t(DebugAction::Read), {}, Entry, 16};
    if (Stops.size() == 2)
      return resume(DebugAction::Step);
    return resume(DebugAction::Continue);
  });
  EXPECT_EQ(R.runStatus(), RunStatus::Returned) << R.message;
  EXPECT_EQ(R.value, 7);
  EXPECT_EQ(Out + Err, "hello\n");
  ASSERT_EQ(Stops.size(), 3u);
  EXPECT_EQ(reason(Stops[0]), StopReason::Entry);
  EXPECT_EQ(Stops[0].pc, Entry);
  std::string PcName = std::string(GetParam().name) == "x86_64" ? "rip" : "pc";
  bool SawPc = false, SawSp = false;
  for (const DebugRegister &Reg : Stops[0].registers) {
    SawPc |= Reg.name == PcName && asU64(Reg.value) == Entry;
    SawSp |= (Reg.name == "sp" || Reg.name == "rsp") && asU64(Reg.value) == Stops[0].address;
  }
  EXPECT_TRUE(SawPc && SawSp) << Stops[0].registers.size() << " registers";
  EXPECT_EQ(Stops[0].memory.size(), 256u);
  EXPECT_EQ(reason(Stops[1]), StopReason::Memory);
  EXPECT_EQ(Stops[1].address, Entry);
  std::vector<uint8_t> Code = assemble(GetParam());
  EXPECT_EQ(Stops[1].memory, std::vector<uint8_t>(Code.begin() + 0x100 * Hello, Code.begin() + 0x100 * Hello + 16));
  EXPECT_EQ(reason(Stops[2]), StopReason::Step);
  EXPECT_GT(Stops[2].pc, Entry);
  EXPECT_LE(Stops[2].pc, Entry + 8);
}

// A breakpoint stops before its instruction; kill ends the run as SIGKILL
// does, and the session goes on.
TEST_P(ExecutorDebug, test_debug_breakpoint_and_kill) {
  uint64_t Second = 0;
  RunResultMsg R = debugRun(Hello, [&](const DebugStopMsg &M) {
    if (Stops.size() == 1)
      return resume(DebugAction::Step);
    Second = M.pc;
    return resume(DebugAction::Kill);
  });
  EXPECT_EQ(R.runStatus(), RunStatus::Signaled);
  EXPECT_EQ(R.value, 9);
  EXPECT_EQ(R.message, "killed by the debugger");
  Stops.clear();
  R = debugRun(Hello, [&](const DebugStopMsg &) { return resume(DebugAction::Continue, {Second}); });
  EXPECT_EQ(R.runStatus(), RunStatus::Returned) << R.message;
  ASSERT_EQ(Stops.size(), 2u);
  EXPECT_EQ(reason(Stops[1]), StopReason::Breakpoint);
  EXPECT_EQ(Stops[1].pc, Second);
  EXPECT_GT(Stops[1].instructionSize, 0u);
}

// A fault stops before it takes its course, naming its kind and address;
// going on ends the run with the fault, as undebugged.
TEST_P(ExecutorDebug, test_debug_fault_stop) {
  RunResultMsg R = debugRun(BadRead, [&](const DebugStopMsg &) { return resume(DebugAction::Continue); });
  EXPECT_EQ(R.runStatus(), RunStatus::Fault) << R.message;
  ASSERT_EQ(Stops.size(), 2u);
  EXPECT_EQ(reason(Stops[1]), StopReason::Fault);
  EXPECT_EQ(FaultKind(Stops[1].faultKind), FaultKind::ReadUnmapped);
  EXPECT_EQ(Stops[1].faultAddress, 0xdead000u);
  EXPECT_EQ(Stops[1].pc, Base + 0x100 * BadRead + GetParam().badReadAt);
}

// Hostile answers are refused with a reason and the run stays stopped where
// it was; it then runs on as asked.
TEST_P(ExecutorDebug, test_debug_refuses_bad_resumes) {
  std::vector<DebugResumeMsg> Bad = {
      {9, {}},
      {uint8_t(DebugAction::Read), {}, Base, 0},
      {uint8_t(DebugAction::Read), {}, Base, MaxDebugRead + 1},
      {uint8_t(DebugAction::Read), {}, 0, 16},
      {uint8_t(DebugAction::Continue), std::vector<uint64_t>(MaxDebugBreakpoints + 1, Base)},
  };
  RunResultMsg R = debugRun(Hello, [&](const DebugStopMsg &) {
    return Stops.size() <= Bad.size() ? Bad[Stops.size() - 1] : resume(DebugAction::Continue);
  });
  EXPECT_EQ(R.runStatus(), RunStatus::Returned) << R.message;
  ASSERT_EQ(Stops.size(), Bad.size() + 1);
  std::vector<std::string> Why;
  for (size_t I = 1; I < Stops.size(); ++I) {
    EXPECT_EQ(reason(Stops[I]), StopReason::Refused);
    EXPECT_EQ(Stops[I].pc, Base + 0x100 * Hello);
    Why.push_back(Stops[I].message);
  }
  EXPECT_EQ(Why, (std::vector<std::string>{
                     "debug-resume: unknown action 9 (0 continue, 1 step, 2 step over, 3 read, 4 kill)",
                     "debug-resume: cannot read 0 bytes at once (1 to 65536)",
                     "debug-resume: cannot read 65537 bytes at once (1 to 65536)",
                     "debug-resume: cannot read 16 bytes at 0x0: not mapped",
                     "debug-resume: 257 breakpoints, at most 256",
                 }));
}

// A stop left unanswered ends the run after the idle limit (the wall-time
// limit does not run while stopped); the session goes on.
TEST_P(ExecutorDebug, test_debug_idle_stop_ends_run) {
  RunResultMsg R = debugRun(
      Hello, [&](const DebugStopMsg &) { return std::nullopt; }, 100);
  EXPECT_EQ(R.runStatus(), RunStatus::Signaled);
  EXPECT_EQ(R.message, "killed: no debug-resume came within 100 ms of a stop");
  EXPECT_EQ(call(Add, {u64(GetParam().arg0, 2), u64(GetParam().arg1, 3)}).value, 5);
}

// The client going away while the run is stopped ends the executor (no
// wait for the idle limit): it exits by itself, not by the reaper's kill.
TEST_P(ExecutorDebug, test_debug_client_gone_while_stopped) {
  Client->setDebugHandler([&](uint32_t, DebugStopMsg) {
    Transport->setSilenceLimit(10000);
    Transport->closeAndReap();
  });
  Client->debugNextRun(0);
  auto R = Client->runMainSync(Base + 0x100 * Hello, {"prog"}, Limits{0, 10000, 0});
  EXPECT_FALSE(bool(R));
  consumeError(R.takeError());
  EXPECT_EQ(Transport->peerGone().find("killed"), std::string::npos) << Transport->peerGone();
  Client.reset(); // nothing to hang up
}

// The client's .eh_frame ranges are hostile input too: unmapped, huge,
// and code read as call-frame information. Each stop still comes (its
// backtrace from whatever parses), and the run ends as undebugged.
TEST_P(ExecutorDebug, test_debug_hostile_eh_frame_ranges) {
  Client->setDebugHandler([&](uint32_t Seq, DebugStopMsg M) {
    Stops.push_back(M);
    EXPECT_FALSE(Client->debugResume(Seq, resume(Stops.size() < 3 ? DebugAction::Step : DebugAction::Continue)));
  });
  Client->debugNextRun(0);
  std::vector<MemoryRange> Ranges = {{0, 16}, {Base, 0x1000}, {Base + 0x100 * Hello, ~uint64_t(0)}, {Base + 2, 5}};
  auto R = Client->sync<RunResultMsg>([&](auto Done) {
    Client->runMain(Base + 0x100 * Hello, {"prog"}, Limits{0, 10000, 0}, std::move(Done), Startup::CallMain, {}, {},
                    Ranges);
  });
  Client->setDebugHandler(nullptr);
  ASSERT_TRUE(bool(R)) << R.takeError().message();
  EXPECT_EQ(R->runStatus(), RunStatus::Returned) << R->message;
  EXPECT_EQ(R->value, 7);
  ASSERT_EQ(Stops.size(), 3u);
  for (const DebugStopMsg &M : Stops) {
    EXPECT_EQ(M.unwound, 1);
    EXPECT_LE(M.returns.size(), 64u);
  }
}

INSTANTIATE_TEST_SUITE_P(Arch, ExecutorDebug, ::testing::ValuesIn(Cases),
                         [](const auto &I) { return std::string(I.param.name); });

// ---- sessions that go wrong -------------------------------------------------

// Sends raw bytes and collects what comes back until the executor hangs up;
// what it sends must be well-formed frames.
std::vector<Frame> sendRaw(ByteTransport &T, const std::vector<uint8_t> &Bytes) {
  EXPECT_FALSE(T.send(Bytes));
  FrameReader R;
  std::vector<Frame> Got;
  uint8_t Buf[4096];
  for (;;) {
    auto N = T.receive(Buf);
    if (!N || *N == 0)
      break;
    R.feed({Buf, *N});
    for (;;) {
      auto F = R.next();
      if (!F) {
        ADD_FAILURE() << "malformed frame from the executor: " << F.takeError().message();
        return Got;
      }
      if (!*F)
        break; // a frame is incomplete: wait for more bytes
      Got.push_back(std::move(**F));
    }
  }
  return Got;
}

// Sends Requests as one burst, numbered from seq 1, and collects the answers.
std::vector<Frame> sendAll(ByteTransport &T, const std::vector<Message> &Requests) {
  std::vector<uint8_t> Bytes;
  uint32_t Seq = 1;
  for (const Message &M : Requests) {
    std::vector<uint8_t> F = encode(Seq++, M);
    Bytes.insert(Bytes.end(), F.begin(), F.end());
  }
  return sendRaw(T, Bytes);
}

std::string sessionError(const std::vector<uint8_t> &Bytes) {
  auto T = spawnExecutor(Executor);
  EXPECT_TRUE(bool(T));
  if (!T)
    return "";
  std::vector<Frame> Got = sendRaw(**T, Bytes);
  EXPECT_EQ(Got.size(), 1u);
  if (Got.size() != 1)
    return "";
  EXPECT_EQ(Got[0].seq, 0u);
  auto *F = std::get_if<FailureMsg>(&Got[0].message);
  return F ? F->message : "not a failure";
}

TEST(ExecutorSession, test_oversized_message_closes_session) {
  std::vector<uint8_t> Bytes = encode(1, HangupMsg{});
  uint32_t Huge = MaxFrameSize + 1;
  std::memcpy(Bytes.data(), &Huge, 4);
  EXPECT_EQ(sessionError(Bytes), "executor session closed: frame size 67108865 out of range [8, 67108864]");
}

TEST(ExecutorSession, test_malformed_message_closes_session) {
  std::vector<uint8_t> Bytes = encode(1, ReserveMsg{1, 2});
  Bytes.resize(Bytes.size() - 2); // the region and the alignment's last byte
  uint32_t Size = uint32_t(Bytes.size() - 4);
  std::memcpy(Bytes.data(), &Size, 4);
  EXPECT_EQ(sessionError(Bytes), "executor session closed: malformed reserve message: truncated integer at payload "
                                 "offset 8 (need 8 bytes, 7 left)");
}

TEST(ExecutorSession, test_truncated_stream_closes_session) {
  std::vector<uint8_t> Bytes = encode(1, SetupMsg{ProtocolVersion, "x86_64-unknown-linux-gnu"});
  Bytes.resize(Bytes.size() - 5);
  // Our own pipes, so that closing the write end gives the executor EOF
  // mid-frame.
  int In[2], Out[2];
  ASSERT_EQ(pipe(In), 0);
  ASSERT_EQ(pipe(Out), 0);
  pid_t Pid = fork();
  if (Pid == 0) {
    dup2(In[0], 0), dup2(Out[1], 1);
    close(In[1]), close(Out[0]);
    execl(Executor.c_str(), Executor.c_str(), "stdio", (char *)nullptr);
    _exit(127);
  }
  close(In[0]), close(Out[1]);
  ASSERT_EQ(write(In[1], Bytes.data(), Bytes.size()), ssize_t(Bytes.size()));
  close(In[1]);
  FdTransport Reader(Out[0], Out[0], 0);
  std::vector<Frame> Got = sendRaw(Reader, {});
  ASSERT_EQ(Got.size(), 1u);
  auto *F = std::get_if<FailureMsg>(&Got[0].message);
  ASSERT_NE(F, nullptr);
  EXPECT_EQ(F->message,
            formatv("executor session closed: connection closed inside a message (%zu bytes pending)", Bytes.size()));
  int Status = 0;
  ASSERT_EQ(waitpid(Pid, &Status, 0), Pid);
  EXPECT_TRUE(WIFEXITED(Status)); // an orderly exit, not a crash
  EXPECT_EQ(WEXITSTATUS(Status), 1);
}

TEST(ExecutorSession, test_requests_before_setup_and_bad_triple) {
  auto T = spawnExecutor(Executor);
  ASSERT_TRUE(bool(T));
  ExecutorClient C(**T);
  auto L = C.lookupSync({"x"});
  ASSERT_FALSE(bool(L));
  EXPECT_EQ(L.takeError().message(), "lookup: lookup before setup");
  auto S = C.setupSync("mips-unknown-linux-gnu");
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(S.takeError().message(), "setup: triple 'mips-unknown-linux-gnu': no emulator for architecture unknown");
  auto S2 = C.setupSync("aarch64-unknown-linux-gnu");
  ASSERT_TRUE(bool(S2)) << S2.takeError().message();
  auto L2 = C.lookupSync({"__heap_start", "printf"});
  ASSERT_TRUE(bool(L2));
  EXPECT_EQ(*L2, (std::vector<uint64_t>{HeapBase, 0}));
  EXPECT_FALSE(C.hangupSync());
}

TEST(ExecutorSession, test_tcp_server_survives_bad_session) {
  int Out[2];
  ASSERT_EQ(pipe(Out), 0);
  pid_t Pid = fork();
  if (Pid == 0) {
    dup2(Out[1], 1);
    close(Out[0]);
    execl(Executor.c_str(), Executor.c_str(), "listen=127.0.0.1:0", (char *)nullptr);
    _exit(127);
  }
  close(Out[1]);
  char Line[128] = {};
  FILE *F = fdopen(Out[0], "r");
  ASSERT_NE(fgets(Line, sizeof(Line), F), nullptr);
  std::string Addr = std::string(Line).substr(std::strlen("listening on "));
  Addr.pop_back(); // newline
  {
    auto T = connectExecutor(Addr);
    ASSERT_TRUE(bool(T)) << T.takeError().message();
    std::vector<Frame> Got = sendRaw(**T, {0xff, 0xff, 0xff, 0xff});
    ASSERT_EQ(Got.size(), 1u);
    EXPECT_TRUE(std::holds_alternative<FailureMsg>(Got[0].message));
  }
  {
    auto T = connectExecutor(Addr);
    ASSERT_TRUE(bool(T)) << T.takeError().message();
    ExecutorClient C(**T);
    auto S = C.setupSync("riscv64-unknown-linux-gnu");
    ASSERT_TRUE(bool(S)) << S.takeError().message();
    EXPECT_EQ(S->triple, "riscv64-unknown-linux-gnu");
    EXPECT_FALSE(C.hangupSync());
  }
  kill(Pid, SIGTERM);
  waitpid(Pid, nullptr, 0);
  fclose(F);
}

// Requests go out in bursts and replies come back in bursts (the client
// sends when it waits, the executor answers before it waits): 20000
// write-memory requests and their 240 KB of replies are several pipe
// buffers each way, so each side must keep reading while it writes.
TEST(ExecutorSession, test_request_bursts_larger_than_pipes) {
  alarm(60); // a deadlock ends the test, not the suite
  auto T = spawnExecutor(Executor);
  ASSERT_TRUE(bool(T));
  ExecutorClient C(**T);
  ASSERT_TRUE(bool(C.setupSync("x86_64-unknown-linux-gnu")));
  uint64_t Base = 0;
  ASSERT_FALSE(C.syncError([&](std::function<void(Error)> Done) {
    C.reserve(0x1000, 0x1000, [&, Done](Expected<uint64_t> A) {
      if (!A)
        return Done(A.takeError());
      Base = *A;
      C.finalize({{Base, ProtRead | ProtWrite, {}, 0x1000}}, Done);
    });
  }));
  constexpr unsigned N = 20000;
  unsigned Answered = 0;
  bool Done = false;
  for (unsigned I = 0; I < N; ++I)
    C.writeMemory(Base + I % 0x1000, {uint8_t(I / 0x1000)}, [&](Error E) {
      EXPECT_FALSE(E);
      Done = ++Answered == N;
    });
  ASSERT_FALSE(C.waitFor(Done));
  auto B = C.sync<std::vector<uint8_t>>([&](auto D) { C.readMemory(Base, 0x1000, D); });
  ASSERT_TRUE(bool(B));
  EXPECT_EQ((*B)[0], N / 0x1000);         // written last in the fifth pass
  EXPECT_EQ((*B)[0xfff], N / 0x1000 - 1); // the fifth pass stopped short of it
  EXPECT_FALSE(C.hangupSync());
  alarm(0);
}

TEST(ExecutorSession, test_spawn_missing_executor) {
  auto T = spawnExecutor("/nonexistent/linklab-executor");
  ASSERT_FALSE(bool(T));
  EXPECT_EQ(T.takeError().message(),
            "cannot start executor '/nonexistent/linklab-executor': No such file or directory");
}

// Debug messages out of place: a debug-resume for a request that is no
// debugged run gets a failure and the session goes on; a debug-stop from a
// client or a truncated debug-resume ends the session saying which.
TEST(ExecutorSession, test_debug_messages_out_of_place) {
  auto T = spawnExecutor(Executor);
  ASSERT_TRUE(bool(T));
  std::vector<uint8_t> Bytes = encode(1, SetupMsg{ProtocolVersion, "x86_64-unknown-linux-gnu"});
  uint32_t Seq = 5;
  for (const Message &M :
       {Message(DebugResumeMsg{0, {1, 2}}), Message(LookupMsg{{"__heap_start"}}), Message(HangupMsg{})}) {
    std::vector<uint8_t> F = encode(Seq++, M);
    Bytes.insert(Bytes.end(), F.begin(), F.end());
  }
  std::vector<Frame> Got = sendRaw(**T, Bytes);
  ASSERT_EQ(Got.size(), 4u);
  auto *Fail = std::get_if<FailureMsg>(&Got[1].message);
  ASSERT_TRUE(Fail);
  EXPECT_EQ(Fail->message, "debug-resume for request 5: no debugged run of that request is stopped");
  EXPECT_TRUE(std::holds_alternative<LookupResultMsg>(Got[2].message));
  EXPECT_TRUE(std::holds_alternative<OkMsg>(Got[3].message));

  std::vector<uint8_t> Setup = encode(1, SetupMsg{ProtocolVersion, "x86_64-unknown-linux-gnu"});
  std::vector<uint8_t> Stop = encode(2, DebugStopMsg{});
  std::vector<uint8_t> Resume = encode(2, DebugResumeMsg{});
  Resume.resize(Resume.size() - 1);
  uint32_t Size = uint32_t(Resume.size() - 4);
  std::memcpy(Resume.data(), &Size, 4);
  for (auto [Tail, Why] :
       {std::pair{Stop, std::string("executor session closed: unexpected debug-stop message from the client")},
        std::pair{Resume, std::string("executor session closed: malformed debug-resume message: truncated "
                                      "integer at payload offset 13 (need 4 bytes, 3 left)")}}) {
    auto T2 = spawnExecutor(Executor);
    ASSERT_TRUE(bool(T2));
    std::vector<uint8_t> B = Setup;
    B.insert(B.end(), Tail.begin(), Tail.end());
    std::vector<Frame> G = sendRaw(**T2, B);
    ASSERT_EQ(G.size(), 2u);
    auto *F = std::get_if<FailureMsg>(&G[1].message);
    ASSERT_TRUE(F);
    EXPECT_EQ(G[1].seq, 0u);
    EXPECT_EQ(F->message, Why);
  }
}

// A client of the protocol before reservation regions (version 6) is told why it cannot talk to this executor.
TEST(ExecutorSession, test_old_client_gets_version_error) {
  auto T = spawnExecutor(Executor);
  ASSERT_TRUE(bool(T));
  std::vector<Frame> Got = sendRaw(**T, encode(1, SetupMsg{ProtocolVersion - 1, "x86_64-unknown-linux-gnu"}));
  ASSERT_EQ(Got.size(), 1u);
  auto *F = std::get_if<FailureMsg>(&Got[0].message);
  ASSERT_TRUE(F);
  EXPECT_EQ(F->message,
            formatv("protocol version %u not supported (executor speaks %u)", ProtocolVersion - 1, ProtocolVersion));
}

// map-file (how the CLI hands the executor a prepared runtime image): the
// descriptor is the client's, checked as hostile bytes are: a regular file,
// every range inside it and inside a reservation. What it maps reads back
// as the file's bytes with the zero fill after them. Each refusal leaves
// the session going, which also shows that the sandbox lets the executor
// receive, check and read the file.
TEST(ExecutorSession, test_map_file_checks_its_descriptor) {
  test::TempDir D;
  std::vector<uint8_t> Content(0x1800);
  for (size_t I = 0; I < Content.size(); ++I)
    Content[I] = uint8_t(I * 7 + 1);
  std::string Path = D.file("image.bin");
  std::ofstream(Path, std::ios::binary).write(reinterpret_cast<const char *>(Content.data()), Content.size());
  auto T = spawnExecutor(Executor);
  ASSERT_TRUE(bool(T));
  ExecutorClient C(**T);
  ASSERT_TRUE(C.mapsFiles());
  ASSERT_TRUE(bool(C.setupSync("x86_64-unknown-linux-gnu")));
  auto Base = C.sync<uint64_t>([&](Callback<uint64_t> Done) { C.reserve(0x4000, 0x1000, std::move(Done)); });
  ASSERT_TRUE(bool(Base));
  auto Map = [&](int Fd, FileSegment S) {
    Error E = C.syncError([&](std::function<void(Error)> Done) { C.mapFile(Fd, {S}, std::move(Done)); });
    return E ? E.message() : "ok";
  };
  int File = open(Path.c_str(), O_RDONLY | O_CLOEXEC), WriteOnly = open(Path.c_str(), O_WRONLY | O_CLOEXEC);
  int Dir = open(D.file("").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC), Pipe[2];
  ASSERT_TRUE(File >= 0 && WriteOnly >= 0 && Dir >= 0 && pipe(Pipe) == 0);
  EXPECT_EQ(Map(File, {*Base, ProtRead, 0x800, 0x1000, 0x1000}), "ok");
  auto Got = C.sync<std::vector<uint8_t>>([&](auto Done) { C.readMemory(*Base, 0x2000, std::move(Done)); });
  ASSERT_TRUE(bool(Got));
  std::vector<uint8_t> Want(Content.begin() + 0x800, Content.end());
  Want.resize(0x2000);
  EXPECT_TRUE(*Got == Want);
  std::string At = formatv("map-file: segment %s", hex(*Base).c_str());
  EXPECT_EQ(Map(File, {*Base, ProtRead, 0x1000, 0x1000, 0}),
            At + ": file bytes 0x1000+0x1000 are not inside the file (0x1800 bytes)");
  EXPECT_EQ(Map(File, {*Base, ProtRead, ~0ull, 2, 0}),
            At + ": file bytes 0xffffffffffffffff+0x2 are not inside the file (0x1800 bytes)");
  EXPECT_EQ(Map(File, {*Base + 0x4000, ProtRead, 0, 0x10, 0}),
            formatv("map-file: segment %s+0x10: not inside a reservation", hex(*Base + 0x4000).c_str()));
  EXPECT_EQ(Map(WriteOnly, {*Base, ProtRead, 0, 0x10, 0}),
            At + "+0x10: reading file bytes 0x0+0x10: Bad file descriptor");
  EXPECT_EQ(Map(Dir, {*Base, ProtRead, 0, 0x10, 0}), "map-file: the descriptor is not a regular file");
  EXPECT_EQ(Map(Pipe[0], {*Base, ProtRead, 0, 0x10, 0}), "map-file: the descriptor is not a regular file");
  for (int Fd : {File, WriteOnly, Dir, Pipe[0], Pipe[1]})
    close(Fd);
  EXPECT_FALSE(C.hangupSync());
  // A map-file frame with no descriptor sent before it.
  auto Raw = spawnExecutor(Executor);
  ASSERT_TRUE(bool(Raw));
  std::vector<Frame> Frames = sendAll(**Raw, {SetupMsg{ProtocolVersion, "x86_64-unknown-linux-gnu"},
                                              MapFileMsg{{{0x30000000, ProtRead, 0, 0x10, 0}}}, HangupMsg{}});
  ASSERT_EQ(Frames.size(), 3u);
  auto *F = std::get_if<FailureMsg>(&Frames[1].message);
  ASSERT_TRUE(F);
  EXPECT_EQ(F->message, "no descriptor came on the files channel");
}

// Reservations go to their region (protocol/address_plan.h), each from its
// own base; a region the plan does not have is refused, naming it.
TEST(ExecutorSession, test_reservation_regions) {
  auto T = spawnExecutor(Executor);
  ASSERT_TRUE(bool(T));
  std::vector<Message> Requests = {SetupMsg{ProtocolVersion, "x86_64-unknown-linux-gnu"}};
  for (uint8_t Region : {1, 0, 1, 2, 255})
    Requests.push_back(ReserveMsg{0x1000, 0x1000, Region});
  Requests.push_back(HangupMsg{});
  std::vector<Frame> Got = sendAll(**T, Requests);
  ASSERT_EQ(Got.size(), 7u);
  auto Address = [&](size_t I) {
    auto *A = std::get_if<AddressMsg>(&Got[I].message);
    return A ? A->address : 0;
  };
  EXPECT_EQ(Address(1), executor::ReservationPlan::RuntimeBase);
  EXPECT_EQ(Address(2), executor::ReservationPlan::Base);
  EXPECT_EQ(Address(3), executor::ReservationPlan::RuntimeBase + 0x2000); // after the first and its guard page
  for (size_t I : {4, 5}) {
    auto *F = std::get_if<FailureMsg>(&Got[I].message);
    ASSERT_TRUE(F) << I;
    EXPECT_EQ(F->message, formatv("no reservation region %u", I == 4 ? 2u : 255u));
  }
}

// write (version 8): each piece's bytes, then its zeros, whatever the
// protection; a piece not wholly inside one reservation (past its end into
// the guard page, outside every reservation, wrapping 2^64, empty) fails
// the message before any piece of it is written, and the session goes on.
TEST(ExecutorSession, test_write_pieces_stay_inside_reservations) {
  auto T = spawnExecutor(Executor);
  ASSERT_TRUE(bool(T));
  constexpr uint64_t Base = executor::ReservationPlan::Base, Size = 0x2000;
  std::vector<Message> Requests = {SetupMsg{ProtocolVersion, "x86_64-unknown-linux-gnu"},
                                   ReserveMsg{Size, 0x1000, 0},
                                   FinalizeMsg{{{Base, ProtRead, std::vector<uint8_t>(Size, 0xff), 0}}},
                                   WriteMsg{{{Base + 0x10, {1, 2, 3}, 5}, {Base + Size - 0x10, {}, 0x10}}},
                                   WriteMsg{{{Base, {7}, 0}, {Base + Size - 0x10, {}, 0x11}}},
                                   WriteMsg{{{0x1000, {1}, 0}}},
                                   WriteMsg{{{Base, {}, ~uint64_t(0) - 0x100}}},
                                   WriteMsg{{{~uint64_t(0) - 1, {1, 2, 3, 4}, 0}}},
                                   WriteMsg{{{Base, {}, 0}}},
                                   ReadMemoryMsg{Base, 0x20},
                                   ReadMemoryMsg{Base + Size - 0x20, 0x20},
                                   HangupMsg{}};
  std::vector<Frame> Got = sendAll(**T, Requests);
  ASSERT_EQ(Got.size(), Requests.size());
  EXPECT_TRUE(std::holds_alternative<OkMsg>(Got[3].message)) << messageName(Got[3].message);
  std::vector<std::string> Why;
  for (size_t I = 4; I <= 8; ++I) {
    auto *F = std::get_if<FailureMsg>(&Got[I].message);
    Why.push_back(F ? F->message : std::string(messageName(Got[I].message)));
  }
  EXPECT_EQ(Why, (std::vector<std::string>{
                     "write: 0x0 bytes and 0x11 zeros at 0x10001ff0: not inside a reservation",
                     "write: 0x1 bytes and 0x0 zeros at 0x1000: not inside a reservation",
                     "write: 0x0 bytes and 0xfffffffffffffeff zeros at 0x10000000: not inside a reservation",
                     "write: 0x4 bytes and 0x0 zeros at 0xfffffffffffffffe: not inside a reservation",
                     "write: 0x0 bytes and 0x0 zeros at 0x10000000: not inside a reservation"}));
  std::vector<uint8_t> Head(0x20, 0xff), Tail(0x20, 0xff);
  Head[0x10] = 1, Head[0x11] = 2, Head[0x12] = 3;
  std::fill(Head.begin() + 0x13, Head.begin() + 0x18, 0);
  std::fill(Tail.begin() + 0x10, Tail.end(), 0);
  auto *H = std::get_if<MemoryMsg>(&Got[9].message);
  auto *E = std::get_if<MemoryMsg>(&Got[10].message);
  ASSERT_TRUE(H && E);
  EXPECT_EQ(H->bytes, Head); // Base's 0xff stayed: the failed message wrote nothing
  EXPECT_EQ(E->bytes, Tail);
}

// run-main's okSince (version 10): the run does not start when the latest
// failed request's seq is okSince or later; any other value (0, a seq
// past every failure, 2^32-1) runs it.
TEST(ExecutorSession, test_run_main_ok_since) {
  auto T = spawnExecutor(Executor);
  ASSERT_TRUE(bool(T));
  auto Run = [](uint32_t OkSince) {
    RunMainMsg M{0x1000, 0, {"p"}, {}, {0, 10000, 0}}; // the return trap: returns at once
    M.okSince = OkSince;
    return Message(M);
  };
  std::vector<Message> Requests = {SetupMsg{ProtocolVersion, "x86_64-unknown-linux-gnu"},
                                   WriteMemoryMsg{0, {1}},
                                   Run(2),
                                   Run(3),
                                   Run(0),
                                   Run(~uint32_t(0)),
                                   WriteMemoryMsg{0, {1}},
                                   Run(~uint32_t(0)),
                                   Run(1),
                                   HangupMsg{}};
  std::vector<Frame> Got = sendAll(**T, Requests);
  ASSERT_EQ(Got.size(), Requests.size());
  std::vector<std::string> Runs;
  for (size_t I : {2, 3, 4, 5, 7, 8}) {
    auto *R = std::get_if<RunResultMsg>(&Got[I].message);
    Runs.push_back(!R ? messageName(Got[I].message) : R->message.substr(0, R->message.find(':', 20)));
    if (R)
      Runs.back() += formatv(" (%s)", runStatusName(R->runStatus()));
  }
  EXPECT_EQ(Runs, (std::vector<std::string>{"not run: request 2 failed (error)", " (returned)", " (returned)",
                                            " (returned)", " (returned)", "not run: request 7 failed (error)"}));
}

// The client's side: a request whose answer nobody waited for fails the
// next run (run-main through okSince, call by waiting for the answers
// first) with its own error, once.
TEST(ExecutorSession, test_unchecked_failure_fails_the_next_run) {
  auto T = spawnExecutor(Executor);
  ASSERT_TRUE(bool(T));
  ExecutorClient C(**T);
  ASSERT_TRUE(bool(C.setupSync("x86_64-unknown-linux-gnu")));
  Limits L{0, 10000, 0};
  C.writeMemory(0, {1}, C.unchecked("poking page zero"));
  auto R = C.runMainSync(0x1000, {"p"}, L);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(R.takeError().message().substr(0, 39), "poking page zero: write-memory: writing");
  R = C.runMainSync(0x1000, {"p"}, L);
  ASSERT_TRUE(bool(R)) << R.takeError().message();
  EXPECT_EQ(R->runStatus(), RunStatus::Returned);
  C.writeMemory(0, {1}, C.unchecked("poking again"));
  R = C.callSync(CallMsg{0x1000, {}, {}, {}, L});
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(R.takeError().message().substr(0, 35), "poking again: write-memory: writing");
  R = C.callSync(CallMsg{0x1000, {}, {}, {}, L});
  ASSERT_TRUE(bool(R)) << R.takeError().message();
  EXPECT_EQ(R->runStatus(), RunStatus::Returned);
  EXPECT_FALSE(C.hangupSync());
}

} // namespace
