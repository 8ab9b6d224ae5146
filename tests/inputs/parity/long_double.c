// long double and libm, digit for digit: on x86-64 and i386 glibc computes
// these with the x87's transcendental instructions (fyl2x, f2xm1, fpatan,
// fsin, fprem, fscale...), which the executor must compute as a real x87
// does; on AArch64 and RISC-V long double is IEEE quad in software.
#include <math.h>
#include <stdio.h>

static const long double Inputs[] = {0.5L, 1.0L, 2.0L, 3.14159265358979323846L, 10.0L, 1e-30L, 123456.789L, -2.75L};

int main(void) {
  for (unsigned I = 0; I < sizeof Inputs / sizeof *Inputs; ++I) {
    long double X = Inputs[I], A = fabsl(X);
    printf("x=%.21Lg\n", X);
    printf("  logl %.21Lg log2l %.21Lg log10l %.21Lg log1pl %.21Lg\n", logl(A), log2l(A), log10l(A), log1pl(A));
    printf("  expl %.21Lg exp2l %.21Lg expm1l %.21Lg powl %.21Lg\n", expl(X / 4), exp2l(X / 4), expm1l(X / 8),
           powl(A, 1.25L));
    printf("  sinl %.21Lg cosl %.21Lg tanl %.21Lg atanl %.21Lg atan2l %.21Lg\n", sinl(X), cosl(X), tanl(X), atanl(X),
           atan2l(X, 3.0L));
    printf("  fmodl %.21Lg remainderl %.21Lg sqrtl %.21Lg cbrtl %.21Lg\n", fmodl(X, 0.7L), remainderl(X, 0.7L),
           sqrtl(A), cbrtl(X));
    printf("  sinhl %.21Lg tanhl %.21Lg asinl %.21Lg scalbnl %La\n", sinhl(X / 8), tanhl(X), asinl(1 / (A + 1)),
           scalbnl(X, 7));
    // The double functions (i386's libm computes these on the x87 too).
    double D = (double)X, Da = fabs(D);
    printf("  log %.17g exp %.17g pow %.17g sin %.17g cos %.17g atan2 %.17g fmod %.17g\n", log(Da), exp(D / 4),
           pow(Da, 1.25), sin(D), cos(D), atan2(D, 3.0), fmod(D, 0.7));
  }
  // A big argument: fsin/fptan report it out of range and glibc reduces it
  // itself. (volatile: gcc folds a constant's tanl at compile time, exactly.)
  volatile long double Big = 1e22L;
  printf("sinl(1e22) %.21Lg tanl(1e22) %.21Lg\n", sinl(Big), tanl(Big));
  // remquo's quotient bits: i386's remquo and x86-64's remquol read them
  // from the status word fprem1 leaves.
  volatile double A = 7.5, B = 2.25;
  int Q = 0, Ql = 0;
  double R = remquo(A, B, &Q);
  long double Rl = remquol(-7.5L, B, &Ql);
  printf("remquo %.17g,%d remquol %.21Lg,%d\n", R, Q, Rl, Ql);
  int E;
  long double M = frexpl(123456.789L, &E);
  printf("frexpl %.21Lg %d ldexpl %.21Lg\n", M, E, ldexpl(M, E));
  return 0;
}
