// Standard C code calling functions of <arch>_custom.s, which take their
// arguments in custom registers: the link must route each call through a
// bridge thunk. main returns how many results are wrong (0: all right).
//
// Results go to volatile globals as they arrive and the verdict is computed
// from memory at the end: a callee run without its thunk may clobber the
// registers main would otherwise keep its tally in (clobber zeroes rbx/x19/s1),
// which could turn a wrong verdict into 0.
typedef struct { long lo, hi; } Pair;
typedef struct { long a, b, c; } Three;

long add3(long a, long b, long c);    // a + 2b + 3c
double fsub2(double a, double b);     // a - b
long wsum(long a, long b, long c);    // a + 2b + 3c, b and c on the callee's stack
long clobber(long x);                 // x, clobbering registers the caller relies on
__int128 inc128(__int128 v);          // v + 1, in a register pair
long bsum16(Pair p);                  // lo + 3 hi, a 16-byte aggregate by value
Three mk3(long b);                    // {b, 2b, 3b}, returned through an sret pointer

// Called through the standard plan by the test, which checks that the
// callee-saved registers survive the thunk around clobber.
long call_clobber(long x) { return clobber(x) + 1; }

enum { NGot = 10 };
volatile long Got[NGot];
volatile double GotF;

int main(void) {
  Got[0] = add3(1, 2, 3);
  Got[1] = add3(1000000000000, -7, 5);
  GotF = fsub2(10.5, 0.25);
  Got[2] = wsum(4, 5, 6);
  Got[3] = call_clobber(41);
  __int128 W = inc128(((__int128)3 << 64) | 0xffffffffffffffffull); // the carry crosses registers
  Got[4] = (long)W;
  Got[5] = (long)(W >> 64);
  Got[6] = bsum16((Pair){5, 7});
  Three T = mk3(11);
  Got[7] = T.a;
  Got[8] = T.b;
  Got[9] = T.c;

  const long Want[NGot] = {1 + 2 * 2 + 3 * 3, 1000000000000 - 14 + 15, 4 + 2 * 5 + 3 * 6, 42, 0, 4,
                           5 + 3 * 7, 11, 22, 33};
  int Wrong = GotF != 10.5 - 0.25;
  for (int I = 0; I < NGot; ++I)
    Wrong += Got[I] != Want[I];
  return Wrong;
}
