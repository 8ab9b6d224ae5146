#include "arch_table.h"

#include <unicorn/arm.h>
#include <unicorn/arm64.h>
#include <unicorn/riscv.h>
#include <unicorn/x86.h>

namespace linklab::emu {

namespace {

// DWARF register numbers: x86-64 psABI table 3.36; AArch64 DWARF ABI
// (x0-x30 = 0-30, sp = 31, v0-v31 = 64-95); RISC-V ELF psABI (x0-x31 = 0-31,
// f0-f31 = 32-63); i386 psABI (eax ecx edx ebx esp ebp esi edi = 0-7,
// xmm0-7 = 21-28); Arm DWARF ABI (r0-r15 = 0-15, d0-d31 = 256-287).
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

std::vector<DwarfReg> i386Regs() {
  static const int Gprs[] = {UC_X86_REG_EAX, UC_X86_REG_ECX, UC_X86_REG_EDX, UC_X86_REG_EBX,
                             UC_X86_REG_ESP, UC_X86_REG_EBP, UC_X86_REG_ESI, UC_X86_REG_EDI};
  std::vector<DwarfReg> R;
  for (uint16_t I = 0; I < 8; ++I)
    R.push_back({I, Gprs[I], 4});
  for (uint16_t I = 0; I < 8; ++I)
    R.push_back({uint16_t(21 + I), UC_X86_REG_XMM0 + I, 16});
  return R;
}

std::vector<DwarfReg> armRegs() {
  std::vector<DwarfReg> R;
  for (uint16_t I = 0; I < 13; ++I)
    R.push_back({I, UC_ARM_REG_R0 + I, 4});
  R.push_back({13, UC_ARM_REG_SP, 4});
  R.push_back({14, UC_ARM_REG_LR, 4});
  for (uint16_t I = 0; I < 32; ++I)
    R.push_back({uint16_t(256 + I), UC_ARM_REG_D0 + I, 8});
  return R;
}

// x86's divide error (#DE, 0) is SIGFPE FPE_INTDIV at the instruction;
// int3 (#BP, 3) SIGTRAP SI_KERNEL after it; the overflow trap (#OF, 4:
// `int $4`, i386's into) SIGSEGV SI_KERNEL after it. These and the system
// call's `int $0x80` (i386: More) are the gates user mode may use; `int $N`
// through any other is a general-protection fault, as are hlt, wrmsr, mov
// to a control register, cli or a privileged segment in user mode (#GP,
// 13): SIGSEGV SI_KERNEL at the instruction. (A 64-bit process's `int
// $0x80` is i386's system call where the kernel has IA32 emulation; the
// executor runs it as a kernel without: SIGSEGV, as Linux here does.)
std::vector<TrapRule> x86Traps(std::vector<TrapRule> More = {}) {
  More.push_back({3, Trap::Signal, 0, 5, 0x80});
  More.push_back({4, Trap::Signal, 0, 11, 0x80});
  More.push_back({AnyVector, Trap::SoftwareInterrupt, 2, 11, 0x80}); // int $N: Unicorn reports the PC past it
  More.push_back({0, Trap::Signal, 0, 8, 1});
  More.push_back({13, Trap::Signal, 0, 11, 0x80});
  return More;
}

// The user segments of Linux's GDT (a 64-bit kernel's: __USER32_CS 0x23,
// __USER_DS 0x2b, __USER_CS 0x33), flat, DPL 3; i386 also keeps entry 2, a
// flat DPL-0 stack segment its SS holds until the iret (Unicorn's 32-bit
// mode leaves SS's descriptor empty, which would make the stack 16-bit).
constexpr uint64_t UserData = 0x00cff3000000ffff, UserCode32 = 0x00cffb000000ffff, UserCode64 = 0x00affb000000ffff,
                   KernelData = 0x00cf93000000ffff;

// To user mode at the return trap (0x1000), per arch (ArchInfo::toUserMode).
const std::vector<uint8_t> X86_64ToUser = {0x48, 0x89, 0xe0,             // mov %rsp, %rax
                                           0x6a, 0x2b,                   // push $0x2b (SS)
                                           0x50,                         // push %rax (RSP)
                                           0x9c,                         // pushfq
                                           0x6a, 0x33,                   // push $0x33 (CS)
                                           0x68, 0x00, 0x10, 0x00, 0x00, // push $0x1000 (RIP)
                                           0x48, 0xcf};                  // iretq
const std::vector<uint8_t> I386ToUser = {
    0xb8, 0x2b, 0x00, 0x00, 0x00, // mov $0x2b, %eax
    0x8e, 0xd8, 0x8e, 0xc0,       // mov %eax, %ds; mov %eax, %es (kept by the iret: DPL 3)
    0x89, 0xe0,                   // mov %esp, %eax
    0x6a, 0x2b, 0x50, 0x9c,       // push $0x2b (SS); push %eax (ESP); pushf
    0x6a, 0x23,                   // push $0x23 (CS)
    0x68, 0x00, 0x10, 0x00, 0x00, // push $0x1000 (EIP)
    0xcf};                        // iret
// SCTLR_EL1 as Linux sets it for EL0: UCT (CTR_EL0), DZE (dc zva), UCI
// (cache maintenance), nTWE (wfe), and E0E = EE (aarch64_be's data byte
// order); CNTKCTL_EL1 EL0PCTEN/EL0VCTEN (the counters).
const std::vector<uint8_t> AArch64ToUser = {0x00, 0x10, 0x38, 0xd5,  // mrs x0, sctlr_el1
                                            0x01, 0x00, 0x98, 0xd2,  // movz x1, #0xc000
                                            0x81, 0x80, 0xa0, 0xf2,  // movk x1, #0x404, lsl #16
                                            0x00, 0x00, 0x01, 0xaa,  // orr x0, x0, x1
                                            0x02, 0x64, 0x59, 0xd3,  // ubfx x2, x0, #25, #1
                                            0x00, 0x60, 0x02, 0xaa,  // orr x0, x0, x2, lsl #24
                                            0x00, 0x10, 0x18, 0xd5,  // msr sctlr_el1, x0
                                            0x60, 0x00, 0x80, 0xd2,  // mov x0, #3
                                            0x00, 0xe1, 0x18, 0xd5,  // msr cntkctl_el1, x0
                                            0x1f, 0x40, 0x18, 0xd5,  // msr spsr_el1, xzr (EL0t)
                                            0x00, 0x00, 0x82, 0xd2,  // mov x0, #0x1000
                                            0x20, 0x40, 0x18, 0xd5,  // msr elr_el1, x0
                                            0xe0, 0x03, 0x9f, 0xd6}; // eret
// mcounteren/scounteren: cycle, time and instret readable from U-mode;
// mstatus.FS = Initial: floating point on (a machine-mode CSR, which
// Unicorn's register writes cannot reach from U-mode).
const std::vector<uint8_t> RiscvToUser = {0xb7, 0x22, 0x00, 0x00,  // lui t0, 2
                                          0x73, 0xa0, 0x02, 0x30,  // csrs mstatus, t0 (FS = Initial)
                                          0x93, 0x02, 0x70, 0x00,  // li t0, 7
                                          0x73, 0x90, 0x62, 0x30,  // csrw mcounteren, t0
                                          0x73, 0x90, 0x62, 0x10,  // csrw scounteren, t0
                                          0x93, 0x02, 0x30, 0x00,  // li t0, 3
                                          0x93, 0x92, 0xb2, 0x00,  // slli t0, t0, 11
                                          0x73, 0xb0, 0x02, 0x30,  // csrc mstatus, t0 (MPP = U)
                                          0xb7, 0x12, 0x00, 0x00,  // lui t0, 1
                                          0x73, 0x90, 0x12, 0x34,  // csrw mepc, t0
                                          0x73, 0x00, 0x20, 0x30}; // mret
const std::vector<uint8_t> ArmToUser = {0x10, 0xf0, 0x21, 0xe3,    // msr cpsr_c, #0x10 (User mode)
                                        0x01, 0xfa, 0xa0, 0xe3};   // mov pc, #0x1000

// Signal frames (SignalFrame): offsets from the kernel's structures.
// x86-64: {pretcode, ucontext (uc_mcontext at 40: r8-r15, rdi, rsi, rbp,
// rbx, rdx, rax, rcx, rsp, rip, eflags, ..., cr2 at 176; uc_sigmask at
// 296), siginfo at 312}.
SignalFrame x86_64Frame() {
  static const int Order[] = {UC_X86_REG_R8,  UC_X86_REG_R9,  UC_X86_REG_R10, UC_X86_REG_R11, UC_X86_REG_R12,
                              UC_X86_REG_R13, UC_X86_REG_R14, UC_X86_REG_R15, UC_X86_REG_RDI, UC_X86_REG_RSI,
                              UC_X86_REG_RBP, UC_X86_REG_RBX, UC_X86_REG_RDX, UC_X86_REG_RAX, UC_X86_REG_RCX,
                              UC_X86_REG_RSP, UC_X86_REG_RIP};
  SignalFrame F = {.size = 440,
                   .info = 312,
                   .uc = 8,
                   .mcontext = 40,
                   .mask = 296,
                   .faultAddress = 176,
                   .redZone = 128,
                   .args = {UC_X86_REG_RDI, UC_X86_REG_RSI, UC_X86_REG_RDX},
                   .regs = {},
                   .trampoline = {0xb8, 0x0f, 0, 0, 0, 0x0f, 0x05 /* mov $15, %eax; syscall */}};
  for (uint16_t I = 0; I < 17; ++I)
    F.regs.push_back({uint16_t(8 * I), Order[I]});
  F.regs.push_back({136, UC_X86_REG_EFLAGS, false});
  return F;
}
// i386: {pretcode, sig, pinfo, puc, siginfo at 16, ucontext at 144
// (uc_mcontext at 20: gs, fs, es, ds, edi, esi, ebp, esp, ebx, edx, ecx,
// eax, trapno, err, eip, cs, eflags, ..., cr2 at 84; uc_sigmask at 108),
// retcode}. The handler's arguments are also on the stack (sig, pinfo, puc).
SignalFrame i386Frame() {
  static const int Order[] = {UC_X86_REG_EDI, UC_X86_REG_ESI, UC_X86_REG_EBP, UC_X86_REG_ESP,
                              UC_X86_REG_EBX, UC_X86_REG_EDX, UC_X86_REG_ECX, UC_X86_REG_EAX};
  SignalFrame F = {.size = 268,
                   .info = 16,
                   .uc = 144,
                   .mcontext = 20,
                   .mask = 108,
                   .faultAddress = 84,
                   .redZone = 0,
                   .args = {UC_X86_REG_EAX, UC_X86_REG_EDX, UC_X86_REG_ECX},
                   .regs = {},
                   .trampoline = {0xb8, 0xad, 0, 0, 0, 0xcd, 0x80 /* mov $173, %eax; int $0x80 */}};
  for (uint16_t I = 0; I < 8; ++I)
    F.regs.push_back({uint16_t(16 + 4 * I), Order[I]});
  F.regs.push_back({56, UC_X86_REG_EIP});
  F.regs.push_back({64, UC_X86_REG_EFLAGS, false});
  return F;
}
// AArch64: {siginfo, ucontext at 128 (uc_sigmask at 40, uc_mcontext at
// 176: fault_address, x0-x30, sp, pc, pstate, then 4096 bytes of records,
// here only the terminating null record)}.
SignalFrame aarch64Frame() {
  SignalFrame F = {.size = 128 + 4560,
                   .info = 0,
                   .uc = 128,
                   .mcontext = 176,
                   .mask = 40,
                   .faultAddress = 0,
                   .redZone = 0,
                   .args = {UC_ARM64_REG_X0, UC_ARM64_REG_X1, UC_ARM64_REG_X2},
                   .regs = {},
                   .trampoline = {0x68, 0x11, 0x80, 0xd2 /* mov x8, #139 */, 0x01, 0x00, 0x00, 0xd4 /* svc #0 */}};
  for (uint16_t I = 0; I < 29; ++I)
    F.regs.push_back({uint16_t(8 + 8 * I), UC_ARM64_REG_X0 + I});
  F.regs.push_back({8 + 8 * 29, UC_ARM64_REG_X29});
  F.regs.push_back({8 + 8 * 30, UC_ARM64_REG_X30});
  F.regs.push_back({256, UC_ARM64_REG_SP});
  F.regs.push_back({264, UC_ARM64_REG_PC});
  F.regs.push_back({272, UC_ARM64_REG_PSTATE, false});
  return F;
}

// AArch64 in either data byte order (Unicorn's UC_MODE_BIG_ENDIAN: data
// accesses big-endian, instruction fetch little-endian, as the psABI's
// aarch64_be); uname and AT_PLATFORM say "aarch64_be" there, as Linux does.
ArchInfo aarch64Row(bool BE) {
  return {
      .arch = BE ? Arch::AArch64_BE : Arch::AArch64,
      .name = BE ? "aarch64_be" : "aarch64",
      .qemuTarget = "aarch64",
      .ucArch = UC_ARCH_ARM64,
      .ucMode = BE ? uc_mode(UC_MODE_ARM | UC_MODE_BIG_ENDIAN) : UC_MODE_ARM,
      .bigEndian = BE,
      .wordSize = 8,
      .pc = UC_ARM64_REG_PC,
      .sp = UC_ARM64_REG_SP,
      .ret = UC_ARM64_REG_X0,
      .link = UC_ARM64_REG_X30,
      .threadPointer = UC_ARM64_REG_TPIDR_EL0,
      .tpKind = ThreadPointer::Register,
      .args = {UC_ARM64_REG_X0, UC_ARM64_REG_X1, UC_ARM64_REG_X2, UC_ARM64_REG_X3, UC_ARM64_REG_X4, UC_ARM64_REG_X5,
               UC_ARM64_REG_X6, UC_ARM64_REG_X7},
      .atExit = UC_ARM64_REG_X0,
      .sysNumber = UC_ARM64_REG_X8,
      .sysArgs = {UC_ARM64_REG_X0, UC_ARM64_REG_X1, UC_ARM64_REG_X2, UC_ARM64_REG_X3, UC_ARM64_REG_X4, UC_ARM64_REG_X5},
      .syscallAbi = SyscallAbi::Generic,
      .syscallInsn = -1,
      .traps = {{2, Trap::Syscall, 0},           // EXCP_SWI: svc, PC already past it
                {1, Trap::SemihostOrIllegal, 0}, // EXCP_UDEF: also `hlt #0xf000`, PC at it
                {7, Trap::Signal, 0, 5, 1}},     // EXCP_BKPT: brk (__builtin_trap), SIGTRAP TRAP_BRKPT at it
      .initialRegs = {{UC_ARM64_REG_CPACR_EL1, 0, 3u << 20},
                      {UC_ARM64_REG_FPCR, ~0ull, 0},
                      {UC_ARM64_REG_FPSR, ~0ull, 0}},
      .elfMachine = 183,
      .elfFlags = 0,
      .hwcap = 0x8fb,
      .hwcap2 = 0,
      .platform = BE ? "aarch64_be" : "aarch64",
      .sigactionSize = 32,
      .retInsn = {0xc0, 0x03, 0x5f, 0xd6 /* ret */},
      .semiOp = UC_ARM64_REG_X0,
      .semiParam = UC_ARM64_REG_X1,
      .semiTrap = {0xd45e0000 /* hlt #0xf000 */},
      .semiTrapPc = 0,
      .regs = aarch64Regs(),
      .signalFrame = aarch64Frame(),
      .toUserMode = AArch64ToUser};
}

// RISC-V: {siginfo, ucontext at 128 (uc_sigmask at 40, uc_mcontext at
// 176: pc, x1-x31, then the FP state: 528 bytes)}.
SignalFrame riscvFrame() {
  SignalFrame F = {.size = 128 + 960,
                   .info = 0,
                   .uc = 128,
                   .mcontext = 176,
                   .mask = 40,
                   .faultAddress = -1,
                   .redZone = 0,
                   .args = {UC_RISCV_REG_A0, UC_RISCV_REG_A1, UC_RISCV_REG_A2},
                   .regs = {},
                   .trampoline = {0x93, 0x08, 0xb0, 0x08 /* li a7, 139 */, 0x73, 0x00, 0x00, 0x00 /* ecall */}};
  F.regs.push_back({0, UC_RISCV_REG_PC});
  for (uint16_t I = 1; I < 32; ++I)
    F.regs.push_back({uint16_t(8 * I), UC_RISCV_REG_X0 + I});
  return F;
}
// 32-bit Arm: {siginfo, ucontext at 128 (uc_mcontext at 20: trap_no,
// error_code, oldmask, r0-r10, fp, ip, sp, lr, pc, cpsr, fault_address;
// uc_sigmask at 104; uc_regspace), retcode}.
SignalFrame armFrame() {
  SignalFrame F = {.size = 128 + 360 + 16,
                   .info = 0,
                   .uc = 128,
                   .mcontext = 20,
                   .mask = 104,
                   .faultAddress = 80,
                   .redZone = 0,
                   .args = {UC_ARM_REG_R0, UC_ARM_REG_R1, UC_ARM_REG_R2},
                   .regs = {},
                   .trampoline = {0xad, 0x70, 0xa0, 0xe3 /* mov r7, #173 */, 0x00, 0x00, 0x00, 0xef /* svc 0 */}};
  for (uint16_t I = 0; I < 13; ++I)
    F.regs.push_back({uint16_t(12 + 4 * I), UC_ARM_REG_R0 + I});
  F.regs.push_back({64, UC_ARM_REG_SP});
  F.regs.push_back({68, UC_ARM_REG_LR});
  F.regs.push_back({72, UC_ARM_REG_PC});
  F.regs.push_back({76, UC_ARM_REG_CPSR, false});
  return F;
}

// As Linux starts a process: floating point enabled (both RISC-V and
// AArch64 cores start with it off: mstatus.FS = Initial (set by toUserMode), CPACR_EL1.FPEN =
// 0b11; Arm VFP needs CPACR cp10/cp11 access and FPEXC.EN; i386 SSE needs
// CR4.OSFXSR/OSXMMEXCPT and CR0.EM clear), the x87 control word 0x37F
// (64-bit precision, exceptions masked) and MXCSR 0x1F80 (SSE exceptions
// masked, round to nearest), FPCR/FPSR, fcsr and FPSCR 0.
const ArchInfo Table[] = {
    {.arch = Arch::X86_64,
     .name = "x86_64",
     .qemuTarget = "x86_64",
     .ucArch = UC_ARCH_X86,
     .ucMode = UC_MODE_64,
     .wordSize = 8,
     .pc = UC_X86_REG_RIP,
     .sp = UC_X86_REG_RSP,
     .ret = UC_X86_REG_RAX,
     .link = -1,
     .threadPointer = UC_X86_REG_FS_BASE,
     .tpKind = ThreadPointer::Register,
     .args = {UC_X86_REG_RDI, UC_X86_REG_RSI, UC_X86_REG_RDX, UC_X86_REG_RCX, UC_X86_REG_R8, UC_X86_REG_R9},
     .atExit = UC_X86_REG_RDX,
     .sysNumber = UC_X86_REG_RAX,
     .sysArgs = {UC_X86_REG_RDI, UC_X86_REG_RSI, UC_X86_REG_RDX, UC_X86_REG_R10, UC_X86_REG_R8, UC_X86_REG_R9},
     .syscallAbi = SyscallAbi::X86_64,
     .syscallInsn = UC_X86_INS_SYSCALL,
     .traps = x86Traps(),
     .illegalCode = 2,
     // EFLAGS as exec leaves it: IF, and bit 1, which always reads as 1.
     .initialRegs = {{UC_X86_REG_FPCW, ~0ull, 0x37f},
                     {UC_X86_REG_MXCSR, ~0ull, 0x1f80},
                     {UC_X86_REG_EFLAGS, ~0ull, 0x202}},
     .elfMachine = 62,
     .elfFlags = 0,
     .hwcap = 0x07088100,
     .hwcap2 = 0,
     .platform = "x86_64",
     .sigactionSize = 32,
     .retInsn = {0xc3 /* ret */},
     .regs = x86Regs(),
     .signalFrame = x86_64Frame(),
     .toUserMode = X86_64ToUser,
     .userGdt = {{5, UserData}, {6, UserCode64}}},
    aarch64Row(false),
    {.arch = Arch::RISCV64,
     .name = "riscv64",
     .qemuTarget = "riscv64",
     .ucArch = UC_ARCH_RISCV,
     .ucMode = UC_MODE_RISCV64,
     .wordSize = 8,
     .pc = UC_RISCV_REG_PC,
     .sp = UC_RISCV_REG_SP,
     .ret = UC_RISCV_REG_A0,
     .link = UC_RISCV_REG_RA,
     .threadPointer = UC_RISCV_REG_TP,
     .tpKind = ThreadPointer::Register,
     .args = {UC_RISCV_REG_A0, UC_RISCV_REG_A1, UC_RISCV_REG_A2, UC_RISCV_REG_A3, UC_RISCV_REG_A4, UC_RISCV_REG_A5,
              UC_RISCV_REG_A6, UC_RISCV_REG_A7},
     .atExit = UC_RISCV_REG_A0,
     .sysNumber = UC_RISCV_REG_A7,
     .sysArgs = {UC_RISCV_REG_A0, UC_RISCV_REG_A1, UC_RISCV_REG_A2, UC_RISCV_REG_A3, UC_RISCV_REG_A4, UC_RISCV_REG_A5},
     .syscallAbi = SyscallAbi::Generic,
     .syscallInsn = -1,
     .traps = {{8, Trap::Syscall, 0}, // ecall from U/S/M mode, PC already past it
               {9, Trap::Syscall, 0},
               {11, Trap::Syscall, 0},
               {2, Trap::Illegal, 4}}, // illegal instruction, PC reported past it
     .breakInsns = {0x00100073 /* ebreak */, 0x9002 /* c.ebreak */},
     .initialRegs = {{UC_RISCV_REG_FCSR, ~0ull, 0}}, // mstatus.FS: toUserMode
     .elfMachine = 243,
     .elfFlags = 0x5 /* RVC, double-float ABI */,
     .hwcap = 0x112d,
     .hwcap2 = 0,
     .platform = nullptr,
     .sigactionSize = 24,
     .retInsn = {0x67, 0x80, 0x00, 0x00 /* ret */},
     .semiOp = UC_RISCV_REG_A0,
     .semiParam = UC_RISCV_REG_A1,
     .semiTrap = {0x01f01013 /* slli x0,x0,0x1f */, 0x00100073 /* ebreak */, 0x40705013 /* srai x0,x0,7 */},
     .semiTrapPc = 1,
     .regs = riscvRegs(),
     .signalFrame = riscvFrame(),
     .toUserMode = RiscvToUser},
    // i386: Unicorn's x86-64 target in 32-bit protected mode. Arguments go
    // on the stack (System V i386 psABI); system calls are `int $0x80` with
    // the number in eax and arguments in ebx, ecx, edx, esi, edi, ebp.
    {.arch = Arch::I386,
     .name = "i686",
     .qemuTarget = "x86_64",
     .ucArch = UC_ARCH_X86,
     .ucMode = UC_MODE_32,
     .wordSize = 4,
     .pc = UC_X86_REG_EIP,
     .sp = UC_X86_REG_ESP,
     .ret = UC_X86_REG_EAX,
     .link = -1,
     .threadPointer = UC_X86_REG_GS,
     .tpKind = ThreadPointer::GdtSegment,
     .args = {},
     .atExit = UC_X86_REG_EDX,
     .sysNumber = UC_X86_REG_EAX,
     .sysArgs = {UC_X86_REG_EBX, UC_X86_REG_ECX, UC_X86_REG_EDX, UC_X86_REG_ESI, UC_X86_REG_EDI, UC_X86_REG_EBP},
     .syscallAbi = SyscallAbi::I386,
     .syscallInsn = -1,
     .traps = x86Traps({{0x80, Trap::Syscall, 0}}), // int $0x80, EIP already past it
     .illegalCode = 2,
     .initialRegs = {{UC_X86_REG_CR0, 1u << 2 /* EM */, 1u << 1 /* MP */},
                     {UC_X86_REG_CR4, 0, 3u << 9 /* OSFXSR, OSXMMEXCPT */},
                     {UC_X86_REG_FPCW, ~0ull, 0x37f},
                     {UC_X86_REG_MXCSR, ~0ull, 0x1f80},
                     {UC_X86_REG_EFLAGS, ~0ull, 0x202}},
     .elfMachine = 3,
     .elfFlags = 0,
     .hwcap = 0x07088100,
     .hwcap2 = 0,
     .platform = "i686",
     .sigactionSize = 20,
     .retInsn = {0xc3 /* ret */},
     .regs = i386Regs(),
     .signalFrame = i386Frame(),
     .toUserMode = I386ToUser,
     .userGdt = {{2, KernelData}, {4, UserCode32}, {5, UserData}}},
    // 32-bit Arm (EABI, hard-float): Unicorn's Cortex-A15. A Thumb entry
    // has bit 0 set, which Unicorn's start takes as the Thumb state; `svc 0`
    // with the number in r7.
    {.arch = Arch::Arm,
     .name = "armv7l",
     .qemuTarget = "arm",
     .ucArch = UC_ARCH_ARM,
     .ucMode = UC_MODE_ARM,
     .wordSize = 4,
     .pc = UC_ARM_REG_PC,
     .sp = UC_ARM_REG_SP,
     .ret = UC_ARM_REG_R0,
     .link = UC_ARM_REG_LR,
     .threadPointer = UC_ARM_REG_C13_C0_3,
     .tpKind = ThreadPointer::Register,
     .args = {UC_ARM_REG_R0, UC_ARM_REG_R1, UC_ARM_REG_R2, UC_ARM_REG_R3},
     .atExit = UC_ARM_REG_R0,
     .sysNumber = UC_ARM_REG_R7,
     .sysArgs = {UC_ARM_REG_R0, UC_ARM_REG_R1, UC_ARM_REG_R2, UC_ARM_REG_R3, UC_ARM_REG_R4, UC_ARM_REG_R5},
     .syscallAbi = SyscallAbi::Arm,
     .syscallInsn = -1,
     .traps = {{2, Trap::Syscall, 0},       // EXCP_SWI: svc, PC already past it
               {1, Trap::Illegal, 0},       // EXCP_UDEF, PC at it
               {7, Trap::Signal, 0, 5, 1}}, // EXCP_BKPT: bkpt, SIGTRAP TRAP_BRKPT at it
     .initialRegs = {{UC_ARM_REG_C1_C0_2, 0, 0xfu << 20 /* CPACR: cp10, cp11 */},
                     {UC_ARM_REG_FPEXC, ~0ull, 1u << 30 /* EN */},
                     {UC_ARM_REG_FPSCR, ~0ull, 0}},
     .elfMachine = 40,
     .elfFlags = 0x05000400 /* EABI5, hard-float */,
     .hwcap = 0x1fb0d6,
     .hwcap2 = 0,
     .platform = "v7l",
     .sigactionSize = 20,
     .retInsn = {0x1e, 0xff, 0x2f, 0xe1 /* bx lr */},
     .regs = armRegs(),
     .signalFrame = armFrame(),
     .toUserMode = ArmToUser},
    aarch64Row(true),
};

} // namespace

const ArchInfo *findArch(Arch A) {
  for (const ArchInfo &I : Table)
    if (I.arch == A)
      return &I;
  return nullptr;
}

} // namespace linklab::emu
