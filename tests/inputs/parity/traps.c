// Traps and privileged instructions met with a SA_SIGINFO handler that
// leaves by siglongjmp: which signal, which si_code, whether si_addr names
// an address (the kernel's own signals, SI_KERNEL, name none; SIGILL and
// the breakpoints name the instruction). The executor's answers to
// tests/unit/executor_sandbox_test.cpp and run_32bit_test.cpp's privileged
// instructions, with a handler. x86: `int $N` through a gate user
// mode may not use, the overflow trap, int3 through `int $3`, hlt, ud2;
// AArch64, RISC-V and Arm: system registers, hypervisor calls, breakpoints.
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static sigjmp_buf Back;
static void onSignal(int Sig, siginfo_t *I, void *Uc) {
  (void)Uc;
  // qemu-user, the reference on other arches, says ILL_ILLOPN for every
  // SIGILL, where Linux says ILL_ILLOPC but on x86: that code only on x86.
#if !defined(__x86_64__) && !defined(__i386__)
  if (Sig == SIGILL) {
    printf("signal %d, si_addr %s\n", Sig, I->si_addr ? "set" : "null");
    siglongjmp(Back, 1);
  }
#endif
  printf("signal %d, si_code %d, si_addr %s\n", Sig, I->si_code, I->si_addr ? "set" : "null");
  siglongjmp(Back, 1);
}

#if defined(__x86_64__) || defined(__i386__)
#define TRAPS(X)                                                                                                       \
  X("int $0x21") X("int $0") X("int $13") X("int $4") X("int $3") X("hlt") X("ud2")
#elif defined(__aarch64__)
#define TRAPS(X) X("msr sctlr_el1, xzr") X("hvc #0") X("mrs x0, ttbr0_el1") X("brk #0")
#elif defined(__riscv)
#define TRAPS(X) X("csrw satp, zero") X("mret") X("csrr a0, mstatus") X("ebreak")
#elif defined(__arm__)
#define TRAPS(X) X("mrc p15, 0, r0, c1, c0, 0") X("vmrs r0, fpexc") X("bkpt #0")
#endif
#define TRY(INSN)                                                                                                      \
  printf("%-28s ", INSN);                                                                                              \
  fflush(stdout);                                                                                                      \
  if (!sigsetjmp(Back, 1)) {                                                                                           \
    __asm__ volatile(INSN ::: "memory");                                                                               \
    printf("ran\n");                                                                                                   \
  }

int main(void) {
  struct sigaction Sa;
  memset(&Sa, 0, sizeof Sa);
  Sa.sa_sigaction = onSignal;
  Sa.sa_flags = SA_SIGINFO;
  static const int Signals[] = {SIGSEGV, SIGILL, SIGTRAP, SIGBUS, SIGFPE};
  for (unsigned I = 0; I < sizeof Signals / sizeof *Signals; ++I)
    sigaction(Signals[I], &Sa, NULL);
  TRAPS(TRY)
  return 0;
}
