// Reads back the start state Linux gives a process and the executor's
// system calls, with no C library: raw system calls, the stack block exec
// leaves (argv, envp, auxv), the program headers AT_PHDR names, the
// floating-point control registers. Prints one line per fact; the last
// action is argv[1]: "abort" (tgkill SIGABRT itself), "exit" (exit_group 7).
// Built freestanding at -O0: clang-22 --target=T -ffreestanding, linked
// with linklab -runtime=none.
typedef unsigned long u64;

#if defined(__x86_64__)
enum { NR_write = 1, NR_mmap = 9, NR_munmap = 11, NR_brk = 12, NR_ioctl = 16, NR_getpid = 39, NR_socket = 41,
       NR_fork = 57, NR_execve = 59, NR_kill = 62, NR_uname = 63, NR_getcwd = 79, NR_clock_gettime = 228,
       NR_exit_group = 231, NR_tgkill = 234, NR_openat = 257, NR_newfstatat = 262, NR_readlinkat = 267,
       NR_prlimit64 = 302, NR_getrandom = 318, NR_unsupported = 206 /* io_setup */, NR_clone = 56, NR_fstat = 5,
       NR_sched_getaffinity = 204, NR_mremap = 25, NR_lseek = 8 };
static long sys6(long n, long a, long b, long c, long d, long e, long f) {
  register long r10 __asm__("r10") = d, r8 __asm__("r8") = e, r9 __asm__("r9") = f;
  long r;
  __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
  return r;
}
#else
enum { NR_write = 64, NR_mmap = 222, NR_munmap = 215, NR_brk = 214, NR_ioctl = 29, NR_getpid = 172, NR_socket = 198,
       NR_fork = -1, NR_execve = 221, NR_kill = 129, NR_uname = 160, NR_getcwd = 17, NR_clock_gettime = 113,
       NR_exit_group = 94, NR_tgkill = 131, NR_openat = 56, NR_newfstatat = 79, NR_readlinkat = 78,
       NR_prlimit64 = 261, NR_getrandom = 278, NR_unsupported = 0 /* io_setup */, NR_clone = 220, NR_fstat = 80,
       NR_sched_getaffinity = 123, NR_mremap = 216, NR_lseek = 62 };
#if defined(__aarch64__)
static long sys6(long n, long a, long b, long c, long d, long e, long f) {
  register long x8 __asm__("x8") = n, x0 __asm__("x0") = a, x1 __asm__("x1") = b, x2 __asm__("x2") = c,
                x3 __asm__("x3") = d, x4 __asm__("x4") = e, x5 __asm__("x5") = f;
  __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5) : "memory");
  return x0;
}
#else
static long sys6(long n, long a, long b, long c, long d, long e, long f) {
  register long a7 __asm__("a7") = n, a0 __asm__("a0") = a, a1 __asm__("a1") = b, a2 __asm__("a2") = c,
                a3 __asm__("a3") = d, a4 __asm__("a4") = e, a5 __asm__("a5") = f;
  __asm__ volatile("ecall" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2), "r"(a3), "r"(a4), "r"(a5) : "memory");
  return a0;
}
#endif
#endif
#define sys(n, ...) sys6_(n, __VA_ARGS__, 0, 0, 0, 0, 0, 0)
#define sys6_(n, a, b, c, d, e, f, ...) sys6(n, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f))

static u64 len(const char *s) {
  u64 n = 0;
  while (s[n])
    n++;
  return n;
}
static int eq(const char *a, const char *b) {
  while (*a && *a == *b)
    a++, b++;
  return *a == *b;
}
static void out(const char *s) { sys(NR_write, 1, s, len(s)); }
static void hex(u64 v) {
  char b[19];
  b[0] = '0', b[1] = 'x';
  int n = 2;
  for (int s = 60; s >= 0; s -= 4)
    if ((v >> s) || s == 0 || n > 2)
      b[n++] = "0123456789abcdef"[(v >> s) & 15];
  b[n] = 0;
  out(b);
}
static void dec(long v) {
  char b[24];
  int n = 23;
  int neg = v < 0;
  u64 u = neg ? -(u64)v : (u64)v;
  b[n] = 0;
  do
    b[--n] = '0' + u % 10, u /= 10;
  while (u);
  if (neg)
    b[--n] = '-';
  out(b + n);
}
static void line(const char *k, long v) { out(k), out("="), dec(v), out("\n"); }
static void lineHex(const char *k, u64 v) { out(k), out("="), hex(v), out("\n"); }

struct Phdr {
  unsigned type, flags;
  u64 offset, vaddr, paddr, filesz, memsz, align;
};
// Gives the program a PT_TLS (local-exec: no __tls_get_addr without a libc).
__attribute__((tls_model("local-exec"))) _Thread_local int tls_value = 42;

int main(int argc, char **argv, char **envp) {
  line("argc", argc);
  for (int i = 0; i < argc; i++)
    out("argv: "), out(argv[i]), out("\n");
  char **e = envp;
  for (; *e; e++)
    out("env: "), out(*e), out("\n");
  u64 *aux = (u64 *)(e + 1);
  u64 at[64];
  for (int i = 0; i < 64; i++) // no memset: there is no libc
    at[i] = 0;
  for (; aux[0]; aux += 2)
    if (aux[0] < 64)
      at[aux[0]] = aux[1];
  line("AT_PAGESZ", at[6]);
  line("AT_PHENT", at[4]);
  line("AT_SECURE", at[23]);
  line("AT_UID", at[11]), line("AT_EUID", at[12]), line("AT_GID", at[13]), line("AT_EGID", at[14]);
  line("AT_CLKTCK", at[17]);
  lineHex("AT_HWCAP", at[16]);
  lineHex("AT_HWCAP2", at[26]);
  line("AT_ENTRY is main", at[9] == (u64)&main);
  out("AT_PLATFORM="), out(at[15] ? (const char *)at[15] : "(none)"), out("\n");
  line("AT_EXECFN is argv[0]", at[31] && eq((const char *)at[31], argv[0]));
  const unsigned char *rnd = (const unsigned char *)at[25];
  int nonzero = 0;
  for (int i = 0; i < 16; i++)
    nonzero |= rnd[i];
  line("AT_RANDOM readable, not all zero", nonzero != 0);
  // The program headers, and the ELF header before them.
  const struct Phdr *ph = (const struct Phdr *)at[3];
  int tls = 0, phdr = 0, stack = 0, load = 0;
  for (u64 i = 0; i < at[5]; i++) {
    if (ph[i].type == 6)
      phdr = ph[i].vaddr == at[3] && ph[i].memsz == at[5] * sizeof *ph;
    if (ph[i].type == 1)
      load = ph[i].vaddr <= at[3] && at[3] < ph[i].vaddr + ph[i].memsz;
    if (ph[i].type == 0x6474e551)
      stack = ph[i].flags == 6;
    if (ph[i].type == 7)
      tls = ph[i].filesz == 4 && ph[i].memsz == 4 && *(const int *)ph[i].vaddr == 42 && ph[i].align == 4;
  }
  line("PT_PHDR names itself", phdr);
  line("PT_LOAD holds the headers", load);
  line("PT_GNU_STACK read-write", stack);
  line("PT_TLS describes the image", tls);
  const unsigned char *ehdr = (const unsigned char *)(at[3] - 64);
  line("ELF header before them", ehdr[0] == 0x7f && ehdr[1] == 'E' && *(const unsigned short *)(ehdr + 56) == at[5]);

  // Floating-point control state.
#if defined(__x86_64__)
  unsigned short cw;
  unsigned mxcsr;
  __asm__ volatile("fnstcw %0" : "=m"(cw));
  __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
  lineHex("x87 control word", cw);
  lineHex("MXCSR", mxcsr);
  unsigned a = 1, b, c, d;
  __asm__ volatile("cpuid" : "+a"(a), "=b"(b), "=c"(c), "=d"(d));
  line("AT_HWCAP is CPUID.1:EDX", at[16] == d);
#elif defined(__aarch64__)
  u64 fpcr, fpsr, isar0;
  __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
  __asm__ volatile("mrs %0, fpsr" : "=r"(fpsr));
  __asm__ volatile("mrs %0, ID_AA64ISAR0_EL1" : "=r"(isar0));
  lineHex("FPCR", fpcr);
  lineHex("FPSR", fpsr);
  // HWCAP_AES|PMULL (ISAR0.AES >= 2), SHA1, SHA2, CRC32 as the ID register says.
  u64 want = 1 | 2 | (((isar0 >> 4) & 15) >= 1 ? 8 : 0) | (((isar0 >> 4) & 15) >= 2 ? 16 : 0) |
             (((isar0 >> 8) & 15) ? 32 : 0) | (((isar0 >> 12) & 15) ? 64 : 0) | (((isar0 >> 16) & 15) ? 128 : 0);
  line("AT_HWCAP matches ID_AA64ISAR0_EL1", (at[16] & 0xff) == want);
#else
  u64 fcsr;
  __asm__ volatile("frcsr %0" : "=r"(fcsr));
  lineHex("fcsr", fcsr);
#endif
  volatile double x = 1.0, y = 3.0;
  line("FP works (1/3 * 3 == 1)", x / y * y == 1.0);
  line("TLS value", tls_value);

  // System calls.
  char uts[6][65];
  line("uname", sys(NR_uname, uts));
  out("sysname="), out(uts[0]), out(" machine="), out(uts[4]), out("\n");
  line("getpid", sys(NR_getpid, 0));
  char cwd[16];
  line("getcwd", sys(NR_getcwd, cwd, sizeof cwd));
  out("cwd="), out(cwd), out("\n");
  char self[256];
  long n = sys(NR_readlinkat, -100, "/proc/self/exe", self, sizeof self - 1);
  self[n > 0 ? n : 0] = 0;
  // Absolute, as the kernel's link is: the working directory "/", then argv[0].
  line("/proc/self/exe is /argv[0]", n > 1 && self[0] == '/' && eq(self + 1, argv[0]));
  u64 ts[2];
  ts[0] = ts[1] = 0;
  line("clock_gettime", sys(NR_clock_gettime, 0, ts));
  line("realtime after 2020", ts[0] > 1577836800);
  u64 rl[2];
  line("prlimit64 STACK", sys(NR_prlimit64, 0, 3, 0, rl));
  line("stack limit", rl[0]);
  unsigned char r1[8], r2[8];
  line("getrandom", sys(NR_getrandom, r1, 8, 0));
  sys(NR_getrandom, r2, 8, 0);
  int differ = 0;
  for (int i = 0; i < 8; i++)
    differ |= r1[i] != r2[i];
  line("getrandom differs between calls", differ);
  u64 st[18];
  line("fstat(1)", sys(NR_fstat, 1, st));
  line("newfstatat(1, \"\", AT_EMPTY_PATH)", sys(NR_newfstatat, 1, "", st, 0x1000));
  unsigned mode = *(unsigned *)((char *)st + (sizeof(void *) == 8 && NR_write == 1 ? 24 : 16));
  lineHex("stdout st_mode", mode);
  char termios[64];
  line("ioctl(1, TCGETS)", sys(NR_ioctl, 1, 0x5401, termios));
  line("lseek(1)", sys(NR_lseek, 1, 0, 0));
  u64 mask = 0;
  line("sched_getaffinity", sys(NR_sched_getaffinity, 0, sizeof mask, &mask));
  line("cpu mask", mask);
  long brk0 = sys(NR_brk, 0);
  long brk1 = sys(NR_brk, brk0 + 0x10000);
  line("brk grows", brk1 == brk0 + 0x10000);
  ((volatile char *)brk0)[0x8000] = 1;
  char *m = (char *)sys(NR_mmap, 0, 0x3000, 3, 0x22, -1, 0);
  line("mmap page-aligned", ((u64)m & 0xfff) == 0 && (long)m > 0);
  m[0] = 'x', m[0x2fff] = 'y';
  char *m2 = (char *)sys(NR_mremap, m, 0x3000, 0x5000, 1 /* MREMAP_MAYMOVE */);
  line("mremap keeps the bytes", (long)m2 > 0 && m2[0] == 'x' && m2[0x2fff] == 'y' && m2[0x4fff] == 0);
  line("munmap", sys(NR_munmap, m2, 0x5000));
  // A host file is not in the process's own file system: -ENOENT, no note.
  line("openat /etc/passwd", sys(NR_openat, -100, "/etc/passwd", 0));
  // Refused: reaching outside the process.
  line("socket", sys(NR_socket, 2, 1, 0));
  char *noargs[1];
  noargs[0] = 0;
  line("execve", sys(NR_execve, "/bin/sh", noargs, noargs));
  line("clone", sys(NR_clone, 17 /* SIGCHLD: fork */, 0, 0, 0, 0));
  line("kill(another pid)", sys(NR_kill, 1, 9));
  line("unsupported", sys(NR_unsupported, 0, 0));
  line("unsupported again", sys(NR_unsupported, 0, 0));
  long pid = sys(NR_getpid, 0);
  line("kill(self, 0)", sys(NR_kill, pid, 0));
  if (argc > 1 && eq(argv[1], "abort"))
    sys(NR_tgkill, pid, pid, 6);
  sys(NR_exit_group, 7);
  return 99;
}
