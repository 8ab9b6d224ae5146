// What the executor must know about each architecture, as data: Unicorn's
// arch/mode, the ABI's registers for calls, returns, system calls and
// semihosting, and the DWARF numbering the call message uses. Adding an
// architecture means adding one ArchInfo row.
#pragma once

#include "support/triple.h"

#include <unicorn/unicorn.h>

#include <cstdint>
#include <vector>

namespace linklab::emu {

// Which Linux system-call numbering an arch uses (linux_syscalls.cpp).
enum class SyscallAbi : uint8_t { X86_64, Generic };

struct DwarfReg {
  uint16_t dwarf;
  int uc;
  uint8_t bytes;
};

struct ArchInfo {
  Arch arch;
  const char *name;
  uc_arch ucArch;
  uc_mode ucMode;
  // link: the return-address register (AArch64 x30, RISC-V ra); -1 on
  // x86-64, where `call` pushes the return address and `ret` pops it.
  int pc, sp, ret, link;
  int threadPointer;     // register Unicorn exposes for the TLS base
  std::vector<int> args;        // integer argument registers, in order
  int sysNumber;                // register holding the syscall number
  std::vector<int> sysArgs;     // syscall argument registers
  SyscallAbi syscallAbi;
  // What Linux tells a process about its machine: ELF e_machine, the
  // auxiliary vector's AT_HWCAP/AT_HWCAP2 (for the CPU Unicorn models:
  // x86-64 CPUID.1:EDX; AArch64 FP, ASIMD, AES, PMULL, SHA1, SHA2, CRC32,
  // CPUID; RISC-V the IMAFDC letters) and AT_PLATFORM (null: none, as on
  // RISC-V).
  uint16_t elfMachine;
  uint64_t hwcap, hwcap2;
  const char *platform;
  std::vector<uint8_t> retInsn; // a bare return, for the no-op _init/_fini
  // Semihosting: the operation and parameter-block registers (the result
  // goes back into `semiOp`), and the trap sequence the semihosting spec
  // defines, as instruction words; Unicorn reports the PC at word
  // semiTrapPc of it. Empty: no semihosting.
  int semiOp, semiParam;
  std::vector<uint32_t> semiTrap;
  unsigned semiTrapPc;
  std::vector<DwarfReg> regs;
};

const ArchInfo *findArch(Arch A);

} // namespace linklab::emu
