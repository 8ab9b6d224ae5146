// A freestanding program (no libc) that makes Linux system calls itself,
// with the instruction and registers of its arch: i386 `int $0x80` (eax,
// ebx, ecx, edx), Arm EABI `svc 0` (r7, r0-r2), x86-64 `syscall`, AArch64
// and RISC-V's generic numbers. Each entry (-runtime=none -entry=NAME) is
// one behaviour; its return value is the exit status.
#if defined(__i386__)
enum { NR_write = 4, NR_exit = 1, NR_open = 5, NR_execve = 11, NR_getpid = 20, NR_unknown = 245 /* io_setup */ };
static long sys3(long n, long a, long b, long c) {
  long r;
  __asm__ volatile("int $0x80" : "=a"(r) : "a"(n), "b"(a), "c"(b), "d"(c) : "memory");
  return r;
}
#elif defined(__arm__)
enum { NR_write = 4, NR_exit = 1, NR_open = 5, NR_execve = 11, NR_getpid = 20, NR_unknown = 243 /* io_setup */ };
static long sys3(long n, long a, long b, long c) {
  register long r7 __asm__("r7") = n;
  register long r0 __asm__("r0") = a;
  register long r1 __asm__("r1") = b;
  register long r2 __asm__("r2") = c;
  __asm__ volatile("svc 0" : "+r"(r0) : "r"(r7), "r"(r1), "r"(r2) : "memory");
  return r0;
}
#elif defined(__x86_64__)
enum { NR_write = 1, NR_exit = 60, NR_open = 2, NR_execve = 59, NR_getpid = 39, NR_unknown = 206 };
static long sys3(long n, long a, long b, long c) {
  long r;
  __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
  return r;
}
#else
#error "an arch this test knows"
#endif

static int length(const char *s) {
  int n = 0;
  while (s[n])
    ++n;
  return n;
}

static void say(const char *s) { sys3(NR_write, 1, (long)s, length(s)); }

// Writes to stdout and stderr, then returns 7 (the exit status).
int hello(void) {
  say("hello from a freestanding program\n");
  sys3(NR_write, 2, (long)"to stderr\n", 10);
  return sys3(NR_getpid, 0, 0, 0) == 1000 ? 7 : 1;
}

// exit(42) through the system call: no return.
int leave(void) {
  sys3(NR_exit, 42, 0, 0);
  return 1;
}

// A call the executor does not implement: -ENOSYS (38), and a note on stderr.
int unsupported(void) { return (int)-sys3(NR_unknown, 0, 0, 0); }

// Starting another program is refused: -EPERM (1), and a note on stderr.
int refused(void) {
  static const char *const Argv[] = {"/bin/sh", 0};
  return (int)-sys3(NR_execve, (long)"/bin/sh", (long)Argv, 0);
}

// A host file is not there: the process has only its own file system
// (-ENOENT, 2, and no note).
int host_file(void) { return (int)-sys3(NR_open, (long)"/etc/passwd", 0, 0); }

__attribute__((noinline)) int read_bad(volatile int *p) { return *p; }

// A load from unmapped memory: a fault naming the PC, read_bad and the address.
int fault(void) { return read_bad((volatile int *)0x123458); }
