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

const ArchInfo Table[] = {
    {Arch::X86_64, "x86_64", UC_ARCH_X86, UC_MODE_64, UC_X86_REG_RIP, UC_X86_REG_RSP, UC_X86_REG_RAX, -1,
     UC_X86_REG_FS_BASE,
     {UC_X86_REG_RDI, UC_X86_REG_RSI, UC_X86_REG_RDX, UC_X86_REG_RCX, UC_X86_REG_R8, UC_X86_REG_R9},
     UC_X86_REG_RAX,
     {UC_X86_REG_RDI, UC_X86_REG_RSI, UC_X86_REG_RDX, UC_X86_REG_R10, UC_X86_REG_R8, UC_X86_REG_R9},
     SyscallAbi::X86_64, 62, 0x07088100, 0, "x86_64", {0xc3 /* ret */}, -1, -1, {}, 0, x86Regs()},
    {Arch::AArch64, "aarch64", UC_ARCH_ARM64, UC_MODE_ARM, UC_ARM64_REG_PC, UC_ARM64_REG_SP, UC_ARM64_REG_X0,
     UC_ARM64_REG_X30, UC_ARM64_REG_TPIDR_EL0,
     {UC_ARM64_REG_X0, UC_ARM64_REG_X1, UC_ARM64_REG_X2, UC_ARM64_REG_X3, UC_ARM64_REG_X4, UC_ARM64_REG_X5,
      UC_ARM64_REG_X6, UC_ARM64_REG_X7},
     UC_ARM64_REG_X8,
     {UC_ARM64_REG_X0, UC_ARM64_REG_X1, UC_ARM64_REG_X2, UC_ARM64_REG_X3, UC_ARM64_REG_X4, UC_ARM64_REG_X5},
     SyscallAbi::Generic, 183, 0x8fb, 0, "aarch64", {0xc0, 0x03, 0x5f, 0xd6 /* ret */}, UC_ARM64_REG_X0,
     UC_ARM64_REG_X1, {0xd45e0000 /* hlt #0xf000 */}, 0,
     aarch64Regs()},
    {Arch::RISCV64, "riscv64", UC_ARCH_RISCV, UC_MODE_RISCV64, UC_RISCV_REG_PC, UC_RISCV_REG_SP,
     UC_RISCV_REG_A0, UC_RISCV_REG_RA, UC_RISCV_REG_TP,
     {UC_RISCV_REG_A0, UC_RISCV_REG_A1, UC_RISCV_REG_A2, UC_RISCV_REG_A3, UC_RISCV_REG_A4, UC_RISCV_REG_A5,
      UC_RISCV_REG_A6, UC_RISCV_REG_A7},
     UC_RISCV_REG_A7,
     {UC_RISCV_REG_A0, UC_RISCV_REG_A1, UC_RISCV_REG_A2, UC_RISCV_REG_A3, UC_RISCV_REG_A4, UC_RISCV_REG_A5},
     SyscallAbi::Generic, 243, 0x112d, 0, nullptr, {0x67, 0x80, 0x00, 0x00 /* ret */}, UC_RISCV_REG_A0,
     UC_RISCV_REG_A1,
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
