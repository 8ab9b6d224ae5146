// Freestanding x86-64: writes 64 KiB to stdout forever through the write
// system call (zero bytes: a loop filling it would become a memset call,
// which nothing here defines). The server tests' output flood.
static char buf[65536];

static long sys_write(int fd, const void *p, unsigned long n) {
  long r;
  __asm__ volatile("syscall" : "=a"(r) : "a"(1), "D"(fd), "S"(p), "d"(n) : "rcx", "r11", "memory");
  return r;
}

int main(void) {
  for (;;) sys_write(1, buf, sizeof buf);
}
