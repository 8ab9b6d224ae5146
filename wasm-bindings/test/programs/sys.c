// Freestanding: prints its arguments through the Linux write system call.
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
enum { SYS_write = 1 };
#else
enum { SYS_write = 64 };
#endif
static unsigned len(const char *s) { unsigned n = 0; while (s[n]) ++n; return n; }
int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    sys3(SYS_write, 1, (long)argv[i], len(argv[i]));
    sys3(SYS_write, 1, (long)"\n", 1);
  }
  sys3(SYS_write, 2, (long)"done\n", 5);
  return 40 + argc;
}
