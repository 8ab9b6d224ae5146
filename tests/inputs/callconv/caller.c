// Standard C code calling functions of <arch>_custom.s, which take their
// arguments in custom registers: the link must route each call through a
// bridge thunk. main returns 0 when every result is right, otherwise a bit
// per wrong result.
long add3(long a, long b, long c);    // a + 2b + 3c
double fsub2(double a, double b);     // a - b
long wsum(long a, long b, long c);    // a + 2b + 3c, b and c on the callee's stack
long clobber(long x);                 // x, clobbering registers the caller relies on

// Called through the standard plan by the test, which checks that the
// callee-saved registers survive the thunk around clobber.
long call_clobber(long x) { return clobber(x) + 1; }

int main(void) {
  int Bad = 0;
  if (add3(1, 2, 3) != 14) Bad |= 1;
  if (add3(1000000000000, -7, 5) != 1000000000001) Bad |= 2;
  if (fsub2(10.5, 0.25) != 10.25) Bad |= 4;
  if (wsum(4, 5, 6) != 32) Bad |= 8;
  if (call_clobber(41) != 42) Bad |= 16;
  return Bad;
}
