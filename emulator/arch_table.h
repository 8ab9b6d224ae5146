// What the executor must know about each architecture, as data: Unicorn's
// arch/mode, the ABI's registers for calls, returns, system calls and
// semihosting, the traps Unicorn reports, the state Linux starts a process
// in, and the DWARF numbering the call message uses. Adding an architecture
// means adding one ArchInfo row.
#pragma once

#include "target/triple.h"

#include <unicorn/unicorn.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace linklab::emu {

// Which Linux system-call numbering an arch uses: a column of
// linux_syscalls.cpp's table.
enum class SyscallAbi : uint8_t { X86_64, Generic, I386, Arm };

struct DwarfReg {
  uint16_t dwarf;
  int uc;
  uint8_t bytes;
};

// What an interrupt number means (Unicorn hands us QEMU's exception numbers
// instead of entering a guest vector). SoftwareInterrupt: x86 `int $N`
// (its bytes CD N just before the PC Unicorn reports) for any N the rules
// before it did not take: the gate is the kernel's, so Linux delivers the
// general-protection fault's signal at the instruction. A real exception
// with the same number (#DE, #GP) is not preceded by such bytes and falls
// through to the rules after it.
enum class Trap : uint8_t { Syscall, SemihostOrIllegal, Illegal, Signal, SoftwareInterrupt };
constexpr uint32_t AnyVector = ~0u; // TrapRule::intno of a SoftwareInterrupt rule
struct TrapRule {
  uint32_t intno;
  Trap trap;
  uint8_t pcBack;               // Unicorn reports the PC this far past the instruction
  uint8_t signal = 0, code = 0; // Trap::Signal: what Linux sends (signo, si_code)
};

// A register as Linux's exec leaves it: value = (value & ~clear) | set.
struct InitialReg {
  int reg;
  uint64_t clear, set;
};

// How the thread pointer is set: a register Unicorn exposes, or (i386) the
// base of a GDT descriptor that %gs selects, as set_thread_area makes one.
enum class ThreadPointer : uint8_t { Register, GdtSegment };

// Linux's rt_sigframe on the arch (arch/*/kernel/signal*.c and the uapi
// ucontext.h/sigcontext.h), whose offsets glibc's ucontext_t and
// mcontext_t share: where the siginfo and the ucontext go in the frame, and
// in the ucontext the signal mask and each general register. The FP/SIMD
// state is not laid out in the frame: the executor keeps an exact copy of
// the interrupted context (signals.cpp).
struct SigReg {
  uint16_t offset; // in uc_mcontext
  int reg;
  bool restore = true; // false: shown to the handler only (flags words: rt_sigreturn keeps the saved ones)
};
struct SignalFrame {
  uint16_t size;           // the frame's bytes (without FP state)
  uint16_t info, uc;       // offsets in the frame
  uint16_t mcontext, mask; // offsets in the ucontext
  int16_t faultAddress;    // in uc_mcontext (cr2, fault_address); -1: none
  uint8_t redZone;         // bytes below sp a handler must not touch (x86-64 psABI)
  std::vector<int> args;   // where the handler gets signo, &info, &uc
  std::vector<SigReg> regs;
  // Calls rt_sigreturn: the return address of a handler without
  // SA_RESTORER, as Linux's vDSO (AArch64, RISC-V) or sigpage gives one.
  std::vector<uint8_t> trampoline;
};

struct ArchInfo {
  Arch arch;
  const char *name;       // uname's machine ("i686")
  const char *qemuTarget; // the QEMU target inside Unicorn ("x86_64" runs i386 too): unicorn_quirks.cpp
  uc_arch ucArch;
  uc_mode ucMode;
  // Data byte order: words the executor puts in guest memory or reads from
  // it (stack, auxv, program headers, system-call structures) follow it;
  // instruction bytes (retInsn, semiTrap) are little-endian on every arch.
  bool bigEndian = false;
  uint8_t wordSize; // bytes of a pointer: stack words, auxv, ELF class
  // link: the return-address register (AArch64 x30, RISC-V ra, Arm lr); -1
  // on x86, where `call` pushes the return address and `ret` pops it.
  int pc, sp, ret, link;
  int threadPointer; // register Unicorn exposes for the TLS base (GdtSegment: the segment register)
  ThreadPointer tpKind;
  std::vector<int> args;    // integer argument registers, in order (none on i386: all on the stack)
  int atExit;               // the register exec clears for _start's "atexit function" argument
  int sysNumber;            // register holding the syscall number
  std::vector<int> sysArgs; // syscall argument registers
  SyscallAbi syscallAbi;
  int syscallInsn; // a UC_HOOK_INSN instruction that is the system call (x86-64 `syscall`), or -1
  std::vector<TrapRule> traps;
  // SIGILL's si_code for an undefined instruction: ILL_ILLOPC (1), but x86's
  // #UD is ILL_ILLOPN (2).
  uint8_t illegalCode = 1;
  // Instructions Unicorn stops at as invalid that Linux reports as a
  // breakpoint, SIGTRAP TRAP_BRKPT at the instruction (RISC-V ebreak,
  // c.ebreak); a word whose low two bits are not 3 is a 16-bit one.
  std::vector<uint32_t> breakInsns = {};
  std::vector<InitialReg> initialRegs; // floating point enabled and reset as Linux starts a process
  // What Linux tells a process about its machine: ELF e_machine and e_flags
  // of its headers, the auxiliary vector's AT_HWCAP/AT_HWCAP2 (for the CPU
  // Unicorn models: x86 CPUID.1:EDX; AArch64 FP, ASIMD, AES, PMULL, SHA1,
  // SHA2, CRC32, CPUID; RISC-V the IMAFDC letters; Arm HALF THUMB FAST_MULT
  // VFP EDSP NEON VFPv3 TLS VFPv4 IDIVA IDIVT VFPD32 LPAE) and AT_PLATFORM
  // (null: none, as on RISC-V).
  uint16_t elfMachine;
  uint32_t elfFlags;
  uint64_t hwcap, hwcap2;
  const char *platform;
  uint8_t sigactionSize;        // the kernel's struct sigaction: handler, flags, [restorer,] mask
  std::vector<uint8_t> retInsn; // a bare return, for the no-op _init/_fini
  // Semihosting: the operation and parameter-block registers (the result
  // goes back into `semiOp`), and the trap sequence the semihosting spec
  // defines, as instruction words; Unicorn reports the PC at word
  // semiTrapPc of it. Empty: no semihosting.
  int semiOp = -1, semiParam = -1;
  std::vector<uint32_t> semiTrap = {};
  unsigned semiTrapPc = 0;
  std::vector<DwarfReg> regs = {};
  SignalFrame signalFrame = {};
  // Linux runs a process unprivileged (x86 CPL 3, AArch64 EL0, RISC-V
  // U-mode, Arm User mode), so that its privileged instructions fault as
  // they do there. Unicorn's CPUs start privileged, and its register writes
  // do not recompute what the translator checks privilege by; so the
  // process, as it is made, runs this privileged code, which leaves the
  // CPU in user mode by the arch's own exception return (iret, eret, mret,
  // an msr to CPSR) and ends at the return trap. x86's iret takes its user
  // segments from the GDT: userGdt's {entry, descriptor}s.
  std::vector<uint8_t> toUserMode = {};
  std::vector<std::pair<uint16_t, uint64_t>> userGdt = {};
};

const ArchInfo *findArch(Arch A);

} // namespace linklab::emu
