// Floating-point exception flags through <fenv.h>: which operations raise
// which flags, in float, double and long double (on x86 the first two are
// SSE, the last the x87; elsewhere all are the FPU's or software), and the
// calls that read, clear, save and restore them. The operands are volatile
// so that the operations happen at run time, not in the compiler. (An
// ordered comparison with a NaN is left out: gcc compiles `<` as x86's
// signaling comisd, clang as the quiet ucomisd; so is rint of a negative
// number in a directed mode: gcc -O1 rounds its magnitude inline.)
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdio.h>

static volatile double One = 1.0, Three = 3.0, Zero = 0.0, Big = DBL_MAX, Tiny = DBL_MIN, Nan = NAN, Half5 = 2.5;
static volatile float FOne = 1.0f, FThree = 3.0f, FZero = 0.0f, FBig = FLT_MAX;
static volatile long double LOne = 1.0L, LThree = 3.0L, LZero = 0.0L, LBig = LDBL_MAX;
static volatile double Sink;
static volatile float FSink;
static volatile long double LSink;
static volatile long LongSink;

static const struct {
  int flag;
  const char *name;
} Flags[] = {{FE_INVALID, "invalid"},
             {FE_DIVBYZERO, "divbyzero"},
             {FE_OVERFLOW, "overflow"},
             {FE_UNDERFLOW, "underflow"},
             {FE_INEXACT, "inexact"}};

// The flags raised since the last clear, by name.
static void show(const char *What) {
  printf("%-22s", What);
  int Raised = fetestexcept(FE_ALL_EXCEPT);
  for (unsigned I = 0; I < sizeof Flags / sizeof *Flags; ++I)
    if (Raised & Flags[I].flag)
      printf(" %s", Flags[I].name);
  printf("%s\n", Raised ? "" : " none");
  feclearexcept(FE_ALL_EXCEPT);
}

int main(void) {
  feclearexcept(FE_ALL_EXCEPT);
  show("nothing");
  Sink = One + One;
  show("1+1");
  Sink = One / Three;
  show("1/3");
  Sink = One / Zero;
  show("1/0");
  Sink = Zero / Zero;
  show("0/0");
  Sink = Big * Three;
  show("max*3");
  Sink = Tiny / Three;
  show("min/3");
  Sink = sqrt(-One);
  show("sqrt(-1)");
  Sink = sqrt(Three);
  show("sqrt(3)");
  LongSink = (long)Nan;
  show("(long)nan");
  LongSink = Nan == One;
  show("nan==1");
  FSink = FOne / FThree;
  show("1f/3f");
  FSink = FOne / FZero;
  show("1f/0f");
  FSink = FBig * FThree;
  show("fmax*3");
  FSink = (float)Tiny;
  show("(float)dblmin");
  LSink = LOne / LThree;
  show("1L/3L");
  LSink = LOne / LZero;
  show("1L/0L");
  LSink = LZero / LZero;
  show("0L/0L");
  LSink = LBig * LThree;
  show("ldmax*3");
  LSink = LOne + LOne;
  show("1L+1L");

  // Raising, testing one flag, saving and restoring.
  feraiseexcept(FE_OVERFLOW | FE_INEXACT);
  printf("raised overflow|inexact: overflow %d divbyzero %d\n", fetestexcept(FE_OVERFLOW) != 0,
         fetestexcept(FE_DIVBYZERO) != 0);
  fexcept_t Saved;
  fegetexceptflag(&Saved, FE_ALL_EXCEPT);
  feclearexcept(FE_OVERFLOW);
  show("cleared overflow");
  fesetexceptflag(&Saved, FE_OVERFLOW);
  show("restored overflow");
  Sink = One / Zero;
  fenv_t Env;
  feholdexcept(&Env);
  show("held");
  Sink = One / Three;
  feupdateenv(&Env);
  show("updated");

  // Rounding modes change results, not flags.
  static const struct {
    int mode;
    const char *name;
  } Modes[] = {{FE_TONEAREST, "nearest"}, {FE_UPWARD, "upward"}, {FE_DOWNWARD, "downward"}, {FE_TOWARDZERO, "zero"}};
  for (unsigned I = 0; I < sizeof Modes / sizeof *Modes; ++I) {
    fesetround(Modes[I].mode);
    Sink = One / Three;
    double D = Sink;
    LSink = LOne / LThree;
    long double L = LSink;
    printf("%-9s 1/3 %a rint(2.5) %g 1L/3L %La mode %d\n", Modes[I].name, D, rint(Half5), L,
           fegetround() == Modes[I].mode);
  }
  fesetround(FE_TONEAREST);
  feclearexcept(FE_ALL_EXCEPT);
  show("end");
  return 0;
}
