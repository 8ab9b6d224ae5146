// libm's double and float functions and complex.h on inputs the compiler
// cannot fold (volatile), edge values included. NaNs from domain errors are
// printed without their sign: x86-64's reference is the shared libm, whose
// compatibility wrappers return +NaN where the static one gives -NaN.
#define _GNU_SOURCE
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdio.h>

static void p(const char *Name, double V) { printf(" %s=%.17g", Name, isnan(V) ? NAN : V); }
// Through a float in memory: on i386 clang's -O2 would pass the x87 register's
// wider value on (excess precision), which is the compiler's choice, not libm's.
static void pf(const char *Name, float V) {
  volatile float Stored = V;
  printf(" %s=%.9g", Name, isnan(Stored) ? NAN : Stored);
}
static void pc(const char *Name, double complex Z) { printf("%s=%.15g%+.15gi\n", Name, creal(Z), cimag(Z)); }

int main(void) {
  volatile double Xs[] = {0.0, -0.0, 0.5, 1.0, 2.0, 3.5, -2.25, 10.0, 1e-310, 1e300, INFINITY, -INFINITY};
  for (unsigned K = 0; K < sizeof Xs / sizeof Xs[0]; ++K) {
    double X = Xs[K];
    printf("x=%g", X);
    p("sin", sin(X)), p("cos", cos(X)), p("tan", tan(X)), p("exp", exp(X)), p("log", log(X)), p("sqrt", sqrt(X));
    p("asin", asin(X)), p("acos", acos(X)), p("atan", atan(X)), p("sinh", sinh(X)), p("cosh", cosh(X)),
        p("tanh", tanh(X));
    p("log2", log2(X)), p("log10", log10(X)), p("log1p", log1p(X)), p("expm1", expm1(X)), p("exp2", exp2(X));
    p("cbrt", cbrt(X)), p("exp10", exp10(X)), p("asinh", asinh(X)), p("acosh", acosh(X)), p("atanh", atanh(X));
    p("tgamma", tgamma(X)), p("lgamma", lgamma(X)), p("erf", erf(X)), p("erfc", erfc(X)), p("j0", j0(X)),
        p("y1", y1(X));
    p("floor", floor(X)), p("ceil", ceil(X)), p("round", round(X)), p("trunc", trunc(X)), p("rint", rint(X));
    int E = 0;
    double M = frexp(X, &E), Ip = 0, Fp = modf(X, &Ip);
    printf(" frexp=%g,%d modf=%g,%g logb=%g ilogb=%d fpclassify=%d signbit=%d\n", M, isfinite(X) ? E : 0, Fp, Ip,
           logb(X), ilogb(X), fpclassify(X), signbit(X) != 0);
  }
  volatile float Fs[] = {0.1f, 1.5f, -3.25f, 100.0f, 1e-40f, 88.7f};
  for (unsigned K = 0; K < sizeof Fs / sizeof Fs[0]; ++K) {
    float F = Fs[K];
    printf("f=%g", F);
    pf("sinf", sinf(F)), pf("cosf", cosf(F)), pf("tanf", tanf(F)), pf("expf", expf(F)), pf("logf", logf(F));
    pf("powf", powf(F, 1.7f)), pf("sqrtf", sqrtf(F)), pf("atan2f", atan2f(F, 2.0f)), pf("tanhf", tanhf(F));
    pf("cbrtf", cbrtf(F)), pf("exp10f", exp10f(F)), pf("lgammaf", lgammaf(F)), pf("tgammaf", tgammaf(F));
    pf("erff", erff(F)), pf("hypotf", hypotf(F, 3.0f)), pf("fmodf", fmodf(F, 0.7f)),
        pf("remainderf", remainderf(F, 0.7f));
    pf("log2f", log2f(F)), pf("exp2f", exp2f(F)), pf("asinhf", asinhf(F));
    printf("\n");
  }
  volatile double A = 7.5, B = 2.25, Half = 0.5, Three = 3.0;
  printf("pow=%.17g fmod=%.17g remainder=%.17g hypot=%.17g atan2=%.17g\n", pow(A, B), fmod(A, B), remainder(A, B),
         hypot(A, B), atan2(A, -B));
  printf("fma=%.17g fdim=%g fmax=%g fmin=%g copysign=%g nextafter=%.17g nexttoward=%.17g\n", fma(A, B, 1e-17),
         fdim(A, B), fmax(A, NAN), fmin(NAN, B), copysign(A, -0.0), nextafter(A, 0.0), nexttoward(A, 10.0L));
  printf("scalbn=%g scalbln=%g jn=%.17g yn=%.17g pow(10,-3.3)=%.17g\n", scalbn(A, 10), scalbln(A, -3), jn(3, A),
         yn(2, A), pow(10, -3.3 * Half * 2));
  printf("pow edges: %g %g %g %g\n", pow(0.0 * A, -1.0), pow(-1, INFINITY), pow(1, NAN), pow(-0.0 * A, -Three));
  double S = 0, C = 0;
  sincos(A, &S, &C);
  printf("sincos=%.17g %.17g lrint=%ld llround=%lld lround=%ld\n", S, C, lrint(A * Half), llround(-A), lround(B));
  printf("DBL_MAX=%.17g DBL_MIN=%.17g DBL_EPSILON=%.17g FLT_MAX=%.9g FLT_EPSILON=%.9g\n", DBL_MAX, DBL_MIN, DBL_EPSILON,
         FLT_MAX, FLT_EPSILON);

  double complex Z = A + B * I, W = Half + Half * Half * I;
  pc("z*w", Z * W), pc("z/w", Z / W), pc("conj", conj(Z));
  printf("cabs=%.17g carg=%.17g\n", cabs(Z), carg(Z));
  pc("cexp", cexp(Z)), pc("clog", clog(Z)), pc("csqrt", csqrt(Z)), pc("cpow", cpow(Z, W));
  pc("csin", csin(Z)), pc("ccos", ccos(Z)), pc("ctan", ctan(W)), pc("casin", casin(Z)), pc("cacos", cacos(Z));
  pc("catan", catan(Z)), pc("csinh", csinh(W)), pc("ccosh", ccosh(W)), pc("ctanh", ctanh(Z)), pc("casinh", casinh(Z));
  pc("cacosh", cacosh(Z)), pc("catanh", catanh(Z)), pc("cproj", cproj(INFINITY * A + B * I));
  pc("div by zero", Z / (0.0 * A));
  float complex Fz = 0.5f + 1.25f * I;
  printf("cexpf=%.7g%+.7gi csqrtf=%.7g%+.7gi cabsf=%.9g\n", crealf(cexpf(Fz)), cimagf(cexpf(Fz)), crealf(csqrtf(Fz)),
         cimagf(csqrtf(Fz)), cabsf(Fz));
  return 0;
}
