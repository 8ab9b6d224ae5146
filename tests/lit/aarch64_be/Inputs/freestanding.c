// A freestanding program for aarch64_be (Debian has no big-endian AArch64
// C library): Linux system calls made directly (svc 0, number in x8), and
// data a linker relocates - pointer tables, function pointers, 16-, 32- and
// 64-bit fields, GOT entries, a thread-local counter - which the CPU then
// loads big-endian; helper.c's function is called through a stub. Run as
// `main(argc, argv)`; prints its arguments after argv[0] and what it
// computed, and returns a checksum as the exit status.
enum { NR_write = 64, NR_exit = 93 };

static long sys3(long n, long a, long b, long c) {
  register long x8 __asm__("x8") = n;
  register long x0 __asm__("x0") = a;
  register long x1 __asm__("x1") = b;
  register long x2 __asm__("x2") = c;
  __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
  return x0;
}

static unsigned long length(const char *s) {
  unsigned long n = 0;
  while (s[n])
    ++n;
  return n;
}

static void say(const char *s) { sys3(NR_write, 1, (long)s, (long)length(s)); }

static void sayHex(unsigned long long v) {
  char buf[19] = "0x";
  for (int i = 0; i < 16; ++i)
    buf[2 + i] = "0123456789abcdef"[(v >> (60 - 4 * i)) & 0xf];
  buf[18] = 0;
  say(buf);
}

static int square(int x) { return x * x; }
static int twice(int x) { return 2 * x; }
extern int thrice(int x);
extern long long table[2];

struct shape {
  const char *name;
  int (*apply)(int);
  unsigned short tag;
  unsigned int id;
  long long wide;
};

struct shape shapes[] = {
    {"square", square, 0x1234, 0xdeadbeef, 0x0102030405060708LL},
    {"twice", twice, 0xbeef, 7, -2},
    {"thrice", thrice, 0xffff, 0x80000000u, 0x7fffffffffffffffLL},
};
struct shape *first = &shapes[0];
const char *words[] = {"alpha", "beta", "gamma"};
__thread int counter = 40;

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    say(argv[i]);
    say(i + 1 < argc ? " " : "\n");
  }
  int sum = 0;
  for (unsigned i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
    const struct shape *s = &shapes[i];
    int v = s->apply(5);
    say(s->name);
    say(" ");
    sayHex((unsigned long long)s->wide);
    say(" ");
    sayHex(s->tag);
    say(" ");
    sayHex(s->id);
    say("\n");
    sum += v;
  }
  // Big-endian data: the most significant byte comes first.
  const unsigned char *bytes = (const unsigned char *)&first->wide;
  say(bytes[0] == 1 && bytes[7] == 8 ? "big-endian\n" : "little-endian\n");
  for (unsigned i = 0; i < 3; ++i) {
    say(words[i]);
    say("\n");
  }
  sayHex((unsigned long long)table[0]);
  say("\n");
  table[1] = thrice(sum); // a direct call to the other object
  counter += 2;
  return (int)(table[1] - 100) + counter; // 3 * (25 + 10 + 15) - 100 + 42
}
