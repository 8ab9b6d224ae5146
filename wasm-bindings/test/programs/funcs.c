// Functions the suite calls through plans, plus runaway and faulting ones.
long add3(long a, long b, long c) { return a + 2 * b + 3 * c; }
double fmix(double x, int n, double y) { return x * n + y; }
long nine(long a, long b, long c, long d, long e, long f, long g, long h, long i) {
  return a + b + c + d + e + f + g + h + 100 * i; // i (and more on x86-64) on the stack
}
void spin(void) {
  for (;;)
    __asm__ volatile("");
}
int crash(void) { return *(volatile int *)0x10; }
int main(void) { return 0; }
// An aggregate passed by value (on the stack, or by reference to a copy,
// per ABI) and one returned through an sret buffer.
struct Big { long a, b, c; };
long sum_big(struct Big B) { return B.a + 2 * B.b + 3 * B.c; }
struct Big make_big(int x) { struct Big B = {x, x + 1, x + 2}; return B; }
