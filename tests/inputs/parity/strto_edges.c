// strtod/strtof/strtold on edge inputs (subnormals, overflow, hex floats,
// inf/nan forms, partial numbers) and strtol/strtoul/strtoll/strtoimax with
// bases, errno and end pointers.
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
  const char *in[] = {"0",
                      "-0",
                      "1e308",
                      "1e309",
                      "-1e309",
                      "1e-320",
                      "1e-400",
                      "4.9406564584124654e-324",
                      "2.2250738585072011e-308",
                      "0x1.fffffffffffffp1023",
                      "0x1p-1074",
                      "0x.8p1",
                      "inf",
                      "-INFINITY",
                      "nan",
                      "NaN(123)",
                      "nan(0x7)",
                      "  +3.5e+2xyz",
                      ".5",
                      "5.",
                      "e5",
                      "1e",
                      "1e+",
                      "0x",
                      "0x1p",
                      "123456789012345678901234567890",
                      "9007199254740993",
                      "1.7976931348623158e308",
                      "1.7976931348623159e308",
                      "0.1e-5000",
                      "1_000",
                      "\t\n 42",
                      "",
                      "-",
                      "infinit",
                      "1.000000000000000000000000000001"};
  for (size_t i = 0; i < sizeof in / sizeof in[0]; ++i) {
    char *e;
    errno = 0;
    double d = strtod(in[i], &e);
    int ed = errno;
    errno = 0;
    float f = strtof(in[i], NULL);
    int ef = errno;
    errno = 0;
    long double l = strtold(in[i], NULL);
    int el = errno;
    printf("'%s': %.17g %a e=%d used=%ld | f=%.9g e=%d | ld=%.6Lg e=%d\n", in[i], d, d, ed, (long)(e - in[i]), f, ef, l,
           el);
  }
  const char *ints[] = {"0x7fffffffffffffff",   "-9223372036854775809", "0777", "0b101", "  -0x10",
                        "18446744073709551615", "18446744073709551616", "-1",   "zz",    "+",
                        "1234567890123"};
  for (size_t i = 0; i < sizeof ints / sizeof ints[0]; ++i) {
    char *e;
    errno = 0;
    long v = strtol(ints[i], &e, 0);
    int e1 = errno;
    errno = 0;
    unsigned long u = strtoul(ints[i], NULL, 0);
    int e2 = errno;
    errno = 0;
    long long ll = strtoll(ints[i], NULL, 16);
    int e3 = errno;
    errno = 0;
    intmax_t im = strtoimax(ints[i], NULL, 36);
    int e4 = errno;
    printf("'%s': %ld(%d,%ld) %lu(%d) %lld(%d) %jd(%d) atoi=%d atol=%ld\n", ints[i], v, e1, (long)(e - ints[i]), u, e2,
           ll, e3, im, e4, atoi(ints[i]), atol(ints[i]));
  }
  errno = 0;
  long b1 = strtol("10", NULL, 1);
  int e1 = errno;
  errno = 0;
  long b37 = strtol("10", NULL, 37);
  printf("base 1: %ld errno=%d base 37: %ld errno=%d\n", b1, e1, b37, errno);
  return 0;
}
