// Guest side of the sandbox tests (tests/unit/executor_sandbox_test.cpp):
// freestanding, raw system calls, linked with -runtime=none and entered
// through -entry=<function>.
//   probe_N    asks linklab-executor-probe (tests/executor/sandbox_probe.cpp)
//              to make host system call N itself, as code that took over the
//              executor would; prints what the call returned if it survives.
//   wait_input blocks reading stdin, then prints "done": a run the test
//              inspects and signals while it waits.
//   spin       loops until its limit; flood writes lines of "y" until its
//              limit, 4 KiB at a time.
//   efault_*   system calls that store into read-only memory (the code, the
//              ELF header), which the kernel refuses with EFAULT (-14).
#if defined(__x86_64__)
enum { SysRead = 0, SysWrite = 1, SysUname = 63, SysClockGettime = 228 };
static long sys(long N, long A, long B, long C) {
  long R;
  __asm__ volatile("syscall" : "=a"(R) : "a"(N), "D"(A), "S"(B), "d"(C) : "rcx", "r11", "memory");
  return R;
}
#else
enum { SysRead = 63, SysWrite = 64, SysClockGettime = 113, SysUname = 160 };
static long sys(long N, long A, long B, long C) {
#if defined(__aarch64__)
  register long Nr __asm__("x8") = N, X0 __asm__("x0") = A, X1 __asm__("x1") = B, X2 __asm__("x2") = C;
  __asm__ volatile("svc #0" : "+r"(X0) : "r"(Nr), "r"(X1), "r"(X2) : "memory");
#else
  register long Nr __asm__("a7") = N, X0 __asm__("a0") = A, X1 __asm__("a1") = B, X2 __asm__("a2") = C;
  __asm__ volatile("ecall" : "+r"(X0) : "r"(Nr), "r"(X1), "r"(X2) : "memory");
#endif
  return X0;
}
#endif
enum { ProbeSyscall = 0x5ec0 }; // emulator/sandbox.h

// Prints N in decimal and a newline on stdout; answers 0.
static long say(long N) {
  char Buf[24], *P = Buf + sizeof Buf;
  *--P = '\n';
  unsigned long V = N < 0 ? -(unsigned long)N : (unsigned long)N;
  do
    *--P = (char)('0' + V % 10);
  while (V /= 10);
  if (N < 0)
    *--P = '-';
  sys(SysWrite, 1, (long)P, Buf + sizeof Buf - P);
  return 0;
}

#define PROBE(N)                                                                                                       \
  long probe_##N(void) { return say(sys(ProbeSyscall, N, 0, 0)); }
PROBE(0)
PROBE(1)
PROBE(2)
PROBE(3)
PROBE(4)
PROBE(5)
PROBE(6)
PROBE(7)
PROBE(8)

long wait_input(void) {
  char C;
  sys(SysRead, 0, (long)&C, 1);
  sys(SysWrite, 1, (long)"done\n", 5);
  return 0;
}

long spin(void) {
  for (volatile long I = 0;; ++I) {
  }
  return 0;
}

static char Lines[4096];
long flood(void) {
  for (unsigned I = 0; I < sizeof Lines; I += 2)
    Lines[I] = 'y', Lines[I + 1] = '\n';
  for (;;)
    sys(SysWrite, 1, (long)Lines, sizeof Lines);
  return 0;
}

extern char __ehdr_start[];

long efault_uname_code(void) { return say(sys(SysUname, (long)&efault_uname_code, 0, 0)); }
long efault_clock_header(void) { return say(sys(SysClockGettime, 0, (long)__ehdr_start, 0)); }
// The same calls into writable memory succeed.
long uname_stack(void) {
  char Buf[6 * 65];
  return say(sys(SysUname, (long)Buf, 0, 0));
}
long clock_stack(void) {
  long Ts[2];
  return say(sys(SysClockGettime, 0, (long)Ts, 0));
}

// Privileged instructions, as a Linux process runs them: unprivileged
// (x86-64 CPL 3: #GP, SIGSEGV; AArch64 EL0 and RISC-V U-mode: undefined,
// SIGILL). Each returns only if the instruction did not fault. x86-64 also
// tries interrupt gates: `int $N` through one of the kernel's is #GP at the
// instruction (also 0x80, i386's system call, which this kernel, without
// IA32 emulation, refuses too; and 0 and 13, which are not #DE and #GP
// themselves); `int $4` is the overflow trap, SIGSEGV after it.
#if defined(__x86_64__)
#define PRIVILEGED(X)                                                                                                  \
  X(0, "hlt") X(1, "wrmsr") X(2, "mov %%rax, %%cr3") X(3, "inb %%dx, %%al") X(4, "outb %%al, %%dx") X(5, "cli")       \
  X(6, "int $0x21") X(7, "int $0x80") X(8, "int $0") X(9, "int $13") X(10, "int $4")
#elif defined(__aarch64__)
#define PRIVILEGED(X)                                                                                                  \
  X(0, "msr sctlr_el1, x0") X(1, "msr daifset, #2") X(2, "mrs x0, ttbr0_el1") X(3, "eret") X(4, "hvc #0")             \
  X(5, "tlbi vmalle1")
#else
#define PRIVILEGED(X)                                                                                                  \
  X(0, "csrw satp, zero") X(1, "mret") X(2, "sret") X(3, "csrr a0, mstatus") X(4, "sfence.vma") X(5, "csrr a0, sstatus")
#endif
#define PRIVILEGED_FN(N, INSN)                                                                                         \
  long priv_##N(void) {                                                                                                \
    __asm__ volatile(INSN ::: "memory");                                                                               \
    return say(N);                                                                                                     \
  }
PRIVILEGED(PRIVILEGED_FN)

// What Linux lets user mode do: AArch64 reads MIDR_EL1 (emulated by the
// kernel) and CTR_EL0, zeroes with dc zva; RISC-V reads its cycle counter.
long unprivileged(void) {
#if defined(__aarch64__)
  unsigned long Midr, Ctr;
  static char Line[256] __attribute__((aligned(256)));
  Line[0] = 1;
  __asm__ volatile("mrs %0, midr_el1\n mrs %1, ctr_el0\n dc zva, %2" : "=r"(Midr), "=r"(Ctr) : "r"(Line) : "memory");
  return say(Midr != 0 && Ctr != 0 && Line[0] == 0);
#elif defined(__riscv)
  unsigned long Cycles;
  __asm__ volatile("rdcycle %0" : "=r"(Cycles));
  return say(Cycles != 0);
#else
  unsigned Lo, Hi;
  __asm__ volatile("rdtsc" : "=a"(Lo), "=d"(Hi));
  return say(Lo != 0 || Hi != 0);
#endif
}

// A thread's host memory counts against the run's memory cap: sysinfo's
// freeram (the cap less what the program holds) drops when a thread is
// made, here one that exits at once (its record stays until the run ends).
// Prints 1 if it dropped.
static char ChildStack[4096] __attribute__((aligned(16)));
long thread_cost(void) {
  enum { Flags = 0x50f00 }; // CLONE_VM | FS | FILES | SIGHAND | THREAD | SYSVSEM
  long Before[16], After[16];
  char *Top = ChildStack + sizeof ChildStack;
#if defined(__x86_64__)
  enum { SysSysinfo = 99 };
  sys(SysSysinfo, (long)Before, 0, 0);
  long Rax = 56;
  __asm__ volatile("syscall\n test %%rax, %%rax\n jnz 1f\n mov $60, %%eax\n xor %%edi, %%edi\n syscall\n 1:"
                   : "+a"(Rax) : "D"((long)Flags), "S"(Top), "d"(0L) : "rcx", "r11", "memory");
#elif defined(__aarch64__)
  enum { SysSysinfo = 179 };
  sys(SysSysinfo, (long)Before, 0, 0);
  register long X8 __asm__("x8") = 220, X0 __asm__("x0") = Flags, X1 __asm__("x1") = (long)Top;
  __asm__ volatile("mov x2, xzr\n mov x3, xzr\n mov x4, xzr\n svc #0\n cbnz x0, 1f\n mov x8, #93\n svc #0\n 1:"
                   : "+r"(X0), "+r"(X8) : "r"(X1) : "x2", "x3", "x4", "memory");
#else
  enum { SysSysinfo = 179 };
  sys(SysSysinfo, (long)Before, 0, 0);
  register long A7 __asm__("a7") = 220, A0 __asm__("a0") = Flags, A1 __asm__("a1") = (long)Top;
  __asm__ volatile("li a2, 0\n li a3, 0\n li a4, 0\n ecall\n bnez a0, 1f\n li a7, 93\n ecall\n 1:"
                   : "+r"(A0), "+r"(A7) : "r"(A1) : "a2", "a3", "a4", "memory");
#endif
  sys(SysSysinfo, (long)After, 0, 0);
  return say(After[5] < Before[5]); // freeram
}
