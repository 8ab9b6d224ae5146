// A Linux system call with up to three arguments, for the freestanding test
// programs (x86-64 syscall, AArch64 svc, RISC-V ecall).
#pragma once
static long sys3(long n, long a, long b, long c) {
  long r;
#if defined(__x86_64__)
  __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
#elif defined(__aarch64__)
  register long x8 __asm__("x8") = n, x0 __asm__("x0") = a, x1 __asm__("x1") = b, x2 __asm__("x2") = c;
  __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
  r = x0;
#else
  register long a7 __asm__("a7") = n, a0 __asm__("a0") = a, a1 __asm__("a1") = b, a2 __asm__("a2") = c;
  __asm__ volatile("ecall" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2) : "memory");
  r = a0;
#endif
  return r;
}
#if defined(__x86_64__)
enum { SYS_read = 0, SYS_write = 1 };
#else
enum { SYS_read = 63, SYS_write = 64 };
#endif
