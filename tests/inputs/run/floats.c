// Floating point arithmetic and printf's %f/%e/%g.
#include <stdio.h>

static double poly(double x) { return ((0.5 * x - 1.25) * x + 3.0) * x - 0.125; }

int main(void) {
  double sum = 0;
  for (int i = 1; i <= 10; ++i)
    sum += 1.0 / i;
  float f = 3.14159f;
  printf("harmonic(10) = %f\n", sum);
  printf("poly(2.5) = %.4f, %e, %g\n", poly(2.5), poly(-1.5), poly(0.25));
  printf("float %f, scaled %.2f, int %d\n", f, f * 100.0f, (int)(f * 1000));
  return (int)sum;
}
