// Guest behaviour that once aborted or stalled linklab-executor (Unicorn
// regions overflowing QEMU's physical map): freestanding, linked with
// -runtime=none and entered through -entry=<function>; each function returns
// 0 after printing a count the test checks against the number it computes
// itself.
typedef unsigned long u64;

#if defined(__x86_64__)
enum { SysWrite = 1, SysMmap = 9, SysMprotect = 10, SysMunmap = 11 };
static long sys(long N, long A, long B, long C, long D, long E, long F) {
  register long R10 __asm__("r10") = D, R8 __asm__("r8") = E, R9 __asm__("r9") = F;
  long R;
  __asm__ volatile("syscall" : "=a"(R) : "a"(N), "D"(A), "S"(B), "d"(C), "r"(R10), "r"(R8), "r"(R9)
                   : "rcx", "r11", "memory");
  return R;
}
#else
enum { SysWrite = 64, SysMunmap = 215, SysMmap = 222, SysMprotect = 226 };
static long sys(long N, long A, long B, long C, long D, long E, long F) {
#if defined(__aarch64__)
  register long Nr __asm__("x8") = N, X0 __asm__("x0") = A, X1 __asm__("x1") = B, X2 __asm__("x2") = C,
                X3 __asm__("x3") = D, X4 __asm__("x4") = E, X5 __asm__("x5") = F;
  __asm__ volatile("svc #0" : "+r"(X0) : "r"(Nr), "r"(X1), "r"(X2), "r"(X3), "r"(X4), "r"(X5) : "memory");
#else
  register long Nr __asm__("a7") = N, X0 __asm__("a0") = A, X1 __asm__("a1") = B, X2 __asm__("a2") = C,
                X3 __asm__("a3") = D, X4 __asm__("a4") = E, X5 __asm__("a5") = F;
  __asm__ volatile("ecall" : "+r"(X0) : "r"(Nr), "r"(X1), "r"(X2), "r"(X3), "r"(X4), "r"(X5) : "memory");
#endif
  return X0;
}
#endif
enum { ProtRead = 1, ProtWrite = 2, MapPrivate = 2, MapAnonymous = 0x20 };
static long mmapAnon(u64 Size, int Prot) { return sys(SysMmap, 0, Size, Prot, MapPrivate | MapAnonymous, -1, 0); }

extern char __heap_start[];

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
  sys(SysWrite, 1, (long)P, Buf + sizeof Buf - P, 0, 0, 0);
  return 0;
}

// Touches every page of the first 64 MiB of the heap; prints pages touched.
long touch_heap(void) {
  volatile char *P = __heap_start;
  long Pages = 0;
  for (u64 Off = 0; Off < (64ul << 20); Off += 4096, ++Pages)
    P[Off] = 1;
  return say(Pages);
}

// 3000 small mappings, each written and read back, every other one unmapped
// and mapped again: prints the mappings that held their bytes and read as
// zero first (3000 + 1500 when all do).
long many_mmaps(void) {
  static long Maps[3000];
  long Good = 0;
  for (int I = 0; I < 3000; ++I) {
    Maps[I] = mmapAnon(8192, ProtRead | ProtWrite);
    if (Maps[I] < 0)
      return say(-I);
    volatile char *P = (char *)Maps[I];
    P[8191] = (char)I;
    Good += P[8191] == (char)I && P[0] == 0;
  }
  for (int I = 0; I < 3000; I += 2)
    if (sys(SysMunmap, Maps[I], 8192, 0, 0, 0, 0) != 0)
      return say(-1);
  for (int I = 0; I < 3000; I += 2) {
    volatile char *P = (char *)mmapAnon(8192, ProtRead | ProtWrite);
    Good += (long)P > 0 && P[0] == 0 && P[8191] == 0; // reused pages read as zero
  }
  return say(Good);
}

// Makes every other page of a 16 MiB mapping read-only, one call each, until
// the executor refuses: prints "refused" when some calls succeeded and the
// refusal was ENOMEM, else the error or "never refused".
long mprotect_many(void) {
  long Base = mmapAnon(16 << 20, ProtRead | ProtWrite);
  long Done = 0;
  for (u64 Page = 0; Page < 4096; Page += 2, ++Done) {
    long R = sys(SysMprotect, Base + Page * 4096, 4096, ProtRead, 0, 0, 0);
    if (R != 0)
      return R == -12 && Done > 100 ? (sys(SysWrite, 1, (long)"refused\n", 8, 0, 0, 0), 0) : say(R);
  }
  return sys(SysWrite, 1, (long)"never refused\n", 14, 0, 0, 0), 0;
}

// A mapping far larger than the address space: prints mmap's result.
long huge_mmap(void) { return say(mmapAnon(1ul << 46, ProtRead | ProtWrite)); }

// Unbounded recursion: runs into the guard below the stack.
long recurse(long N) {
  volatile char Frame[256];
  Frame[N & 255] = (char)N;
  return recurse(N + 1) + Frame[0];
}
