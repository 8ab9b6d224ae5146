#include "arch_table.h"

#include <unicorn/arm64.h>
#include <unicorn/riscv.h>
#include <unicorn/x86.h>

namespace linklab::emu {

namespace {

// DWARF register numbers: x86-64 psABI table 3.36; AArch64 DWARF ABI
// (x0-x30 = 0-30, sp = 31, v0-v31 = 64-95); RISC-V ELF psABI (x0-x31 = 0-31,
// f0-f31 = 32-63).
std::vector<DwarfReg> x86Regs() {
  static const int Gprs[] = {UC_X86_REG_RAX, UC_X86_REG_RDX, UC_X86_REG_RCX, UC_X86_REG_RBX,
                             UC_X86_REG_RSI, UC_X86_REG_RDI, UC_X86_REG_RBP, UC_X86_REG_RSP};
  std::vector<DwarfReg> R;
  for (uint16_t I = 0; I < 8; ++I)
    R.push_back({I, Gprs[I], 8});
  for (uint16_t I = 0; I < 8; ++I)
    R.push_back({uint16_t(8 + I), UC_X86_REG_R8 + I, 8});
  for (uint16_t I = 0; I < 16; ++I)
    R.push_back({uint16_t(17 + I), UC_X86_REG_XMM0 + I, 16});
  return R;
}

std::vector<DwarfReg> aarch64Regs() {
  std::vector<DwarfReg> R;
  for (uint16_t I = 0; I < 29; ++I) // Unicorn numbers x29/x30 apart from x0-x28
    R.push_back({I, UC_ARM64_REG_X0 + I, 8});
  R.push_back({29, UC_ARM64_REG_X29, 8});
  R.push_back({30, UC_ARM64_REG_X30, 8});
  R.push_back({31, UC_ARM64_REG_SP, 8});
  for (uint16_t I = 0; I < 32; ++I)
    R.push_back({uint16_t(64 + I), UC_ARM64_REG_Q0 + I, 16});
  return R;
}

std::vector<DwarfReg> riscvRegs() {
  std::vector<DwarfReg> R;
  for (uint16_t I = 0; I < 32; ++I)
    R.push_back({I, UC_RISCV_REG_X0 + I, 8});
  for (uint16_t I = 0; I < 32; ++I)
    R.push_back({uint16_t(32 + I), UC_RISCV_REG_F0 + I, 8});
  return R;
}

// Linux x86-64 numbers (arch/x86/entry/syscalls/syscall_64.tbl).
const std::vector<SyscallNumber> X86Syscalls = {
    {0, Sys::Read},          {1, Sys::Write},          {9, Sys::Mmap},        {10, Sys::Mprotect},
    {11, Sys::Munmap},       {12, Sys::Brk},           {13, Sys::RtSigaction}, {14, Sys::RtSigprocmask},
    {16, Sys::Ioctl},        {20, Sys::Writev},        {28, Sys::Madvise},    {39, Sys::Getpid},
    {60, Sys::Exit},         {158, Sys::ArchPrctl},    {186, Sys::Gettid},    {200, Sys::Tkill},
    {218, Sys::SetTidAddress}, {228, Sys::ClockGettime}, {231, Sys::ExitGroup},
};

// The generic table AArch64 and RISC-V share (include/uapi/asm-generic/unistd.h).
const std::vector<SyscallNumber> GenericSyscalls = {
    {29, Sys::Ioctl},        {63, Sys::Read},          {64, Sys::Write},      {66, Sys::Writev},
    {93, Sys::Exit},         {94, Sys::ExitGroup},     {96, Sys::SetTidAddress}, {113, Sys::ClockGettime},
    {130, Sys::Tkill},       {134, Sys::RtSigaction},  {135, Sys::RtSigprocmask}, {172, Sys::Getpid},
    {178, Sys::Gettid},      {214, Sys::Brk},          {215, Sys::Munmap},    {222, Sys::Mmap},
    {226, Sys::Mprotect},    {233, Sys::Madvise},
};

const ArchInfo Table[] = {
    {Arch::X86_64, "x86_64", UC_ARCH_X86, UC_MODE_64, UC_X86_REG_RIP, UC_X86_REG_RSP, UC_X86_REG_RAX, -1,
     UC_X86_REG_FS_BASE,
     {UC_X86_REG_RDI, UC_X86_REG_RSI, UC_X86_REG_RDX, UC_X86_REG_RCX, UC_X86_REG_R8, UC_X86_REG_R9},
     UC_X86_REG_RAX,
     {UC_X86_REG_RDI, UC_X86_REG_RSI, UC_X86_REG_RDX, UC_X86_REG_R10, UC_X86_REG_R8, UC_X86_REG_R9},
     X86Syscalls, -1, -1, {}, 0, x86Regs()},
    {Arch::AArch64, "aarch64", UC_ARCH_ARM64, UC_MODE_ARM, UC_ARM64_REG_PC, UC_ARM64_REG_SP, UC_ARM64_REG_X0,
     UC_ARM64_REG_X30, UC_ARM64_REG_TPIDR_EL0,
     {UC_ARM64_REG_X0, UC_ARM64_REG_X1, UC_ARM64_REG_X2, UC_ARM64_REG_X3, UC_ARM64_REG_X4, UC_ARM64_REG_X5,
      UC_ARM64_REG_X6, UC_ARM64_REG_X7},
     UC_ARM64_REG_X8,
     {UC_ARM64_REG_X0, UC_ARM64_REG_X1, UC_ARM64_REG_X2, UC_ARM64_REG_X3, UC_ARM64_REG_X4, UC_ARM64_REG_X5},
     GenericSyscalls, UC_ARM64_REG_X0, UC_ARM64_REG_X1, {0xd45e0000 /* hlt #0xf000 */}, 0,
     aarch64Regs()},
    {Arch::RISCV64, "riscv64", UC_ARCH_RISCV, UC_MODE_RISCV64, UC_RISCV_REG_PC, UC_RISCV_REG_SP,
     UC_RISCV_REG_A0, UC_RISCV_REG_RA, UC_RISCV_REG_TP,
     {UC_RISCV_REG_A0, UC_RISCV_REG_A1, UC_RISCV_REG_A2, UC_RISCV_REG_A3, UC_RISCV_REG_A4, UC_RISCV_REG_A5,
      UC_RISCV_REG_A6, UC_RISCV_REG_A7},
     UC_RISCV_REG_A7,
     {UC_RISCV_REG_A0, UC_RISCV_REG_A1, UC_RISCV_REG_A2, UC_RISCV_REG_A3, UC_RISCV_REG_A4, UC_RISCV_REG_A5},
     GenericSyscalls, UC_RISCV_REG_A0, UC_RISCV_REG_A1,
     {0x01f01013 /* slli x0,x0,0x1f */, 0x00100073 /* ebreak */, 0x40705013 /* srai x0,x0,7 */}, 1, riscvRegs()},
};

} // namespace

const ArchInfo *findArch(Arch A) {
  for (const ArchInfo &I : Table)
    if (I.arch == A)
      return &I;
  return nullptr;
}

} // namespace linklab::emu
