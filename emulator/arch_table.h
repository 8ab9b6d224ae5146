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

// How a called function finds its way back to the return trap.
enum class ReturnAddress : uint8_t {
  Pushed,   // x86-64: `call` pushed it; the callee's `ret` pops it
  Register, // AArch64 x30, RISC-V ra
};

// Runtime services the executor implements, whatever the arch numbers them.
enum class Sys : uint8_t {
  Unknown, Read, Write, Writev, Exit, ExitGroup, Brk, Mmap, Munmap, Mprotect, Ioctl, SetTidAddress,
  RtSigprocmask, RtSigaction, ArchPrctl, Getpid, Gettid, Tkill, Madvise, ClockGettime,
};

// Where the thread pointer sits relative to the initial TLS block (ELF TLS
// variants, Drepper "ELF Handling For Thread-Local Storage" section 3.4).
enum class TlsVariant : uint8_t {
  BlockBelowTp,     // x86-64 (variant II): block ends at tp; tp points at a TCB whose word 0 is tp
  BlockAfterTcb16,  // AArch64 (variant I): a 16-byte TCB at tp, the block after it
  BlockAtTp,        // RISC-V (variant I, TCB size 0): the block starts at tp
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
  int pc, sp, ret, link; // link: -1 when the return address is pushed
  int threadPointer;     // register Unicorn exposes for the TLS base
  ReturnAddress returnAddress;
  std::vector<int> args;        // integer argument registers, in order
  int sysNumber;                // register holding the syscall number
  std::vector<int> sysArgs;     // syscall argument registers
  std::vector<SyscallNumber> syscalls;
  // Semihosting: the operation and parameter-block registers (the result
  // goes back into `semiOp`), and the trap instruction's bytes.
  int semiOp, semiParam;
  TlsVariant tls;
  std::vector<DwarfReg> regs;
};

const ArchInfo *findArch(Arch A);

} // namespace linklab::emu
