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

// Runtime services the executor implements, whatever the arch numbers them.
enum class Sys : uint8_t {
  Unknown, Read, Write, Writev, Exit, ExitGroup, Brk, Mmap, Munmap, Mprotect, Ioctl, SetTidAddress,
  RtSigprocmask, RtSigaction, ArchPrctl, Getpid, Gettid, Tkill, Madvise, ClockGettime,
};

struct SyscallNumber {
  uint32_t number;
  Sys sys;
};

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
  std::vector<SyscallNumber> syscalls;
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
