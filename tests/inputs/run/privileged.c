// Privileged instructions and interrupt gates, as an i386 or 32-bit Arm
// Linux process meets them: unprivileged (i386 CPL 3: a general-protection
// fault or the overflow trap, SIGSEGV; Arm User mode: undefined, SIGILL).
// Each priv_N returns N only if its instruction did not fault;
// `unprivileged` returns 1 after what user mode may do. Freestanding
// (-runtime=none -entry=NAME); run_32bit_test.cpp also builds it with a
// main for qemu-user, the reference.
#if defined(__i386__)
// int $N through a gate of DPL 0 (all but 3, 4 and the system call's 0x80)
// is #GP at the instruction; int $4 and into (with OF set) are the
// overflow trap, after it.
#define PRIVILEGED(X)                                                                                                  \
  X(0, "hlt") X(1, "cli") X(2, "wrmsr") X(3, "mov %%eax, %%cr3") X(4, "inb %%dx, %%al") X(5, "outb %%al, %%dx")       \
  X(6, "lgdt (%%esp)") X(7, "int $0x21") X(8, "int $0") X(9, "int $13") X(10, "int $4")                                \
  X(11, "mov $0x7fffffff, %%eax\n add %%eax, %%eax\n into")
#elif defined(__arm__)
// Coprocessor 15's system registers, the hypervisor and secure monitor
// calls, the VFP's privileged FPEXC; and a write of CPSR's mode bits, which
// user mode ignores, so the system register read after it still faults.
#define PRIVILEGED(X)                                                                                                  \
  X(0, "mrc p15, 0, r0, c1, c0, 0") X(1, "mcr p15, 0, r0, c1, c0, 0") X(2, "mrc p15, 0, r0, c2, c0, 0")               \
  X(3, "mcr p15, 0, r0, c8, c7, 0") X(4, "hvc #0") X(5, "smc #0") X(6, "vmrs r0, fpexc")                               \
  X(7, "mov r0, #0xd3\n msr cpsr_c, r0\n mrc p15, 0, r0, c1, c0, 0")
#else
#error "an arch this test knows"
#endif
#if defined(__i386__)
#define SCRATCH "eax"
#else
#define SCRATCH "r0"
#endif
#define PRIVILEGED_FN(N, INSN)                                                                                         \
  int priv_##N(void) {                                                                                                 \
    __asm__ volatile(INSN ::: SCRATCH, "memory");                                                                      \
    return N;                                                                                                          \
  }
PRIVILEGED(PRIVILEGED_FN)

// What user mode may do: i386 reads the time-stamp counter; Arm reads its
// thread register (TPIDRURO) and runs cpsid, which user mode ignores.
int unprivileged(void) {
#if defined(__i386__)
  unsigned Lo, Hi;
  __asm__ volatile("rdtsc" : "=a"(Lo), "=d"(Hi));
  return Lo != 0 || Hi != 0;
#else
  unsigned Tp;
  __asm__ volatile("cpsid i\n mrc p15, 0, %0, c13, c0, 3" : "=r"(Tp) : : "memory");
  (void)Tp;
  return 1;
#endif
}
