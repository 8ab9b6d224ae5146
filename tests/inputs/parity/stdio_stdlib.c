#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

int main(int argc, char **argv) {
  printf("argc=%d\n", argc);
  errno = 0;
  long v = strtol("99999999999999999999999", NULL, 10);
  printf("strtol overflow: %ld errno=%d (%s)\n", v, errno, strerror(errno));
  printf("strerror(ENOENT)=%s\n", strerror(ENOENT));
  printf("strerror(9999)=%s\n", strerror(9999));
  const char *s = "Hello, World 42!";
  for (const char *p = s; *p; ++p)
    putchar(isalpha((unsigned char)*p) ? toupper((unsigned char)*p) : isdigit((unsigned char)*p) ? '#' : '.');
  putchar('\n');
  printf("%f %e %g %a\n", 3.14159265358979, 1e300, 1e-300, 0.1);
  printf("%.20f %.3e %g %g\n", 1.0 / 3, 6.02214076e23, 1e100, 5e-324);
  printf("%f\n", 1e22);
  printf("%.17g\n", sqrt(2.0));
  long double ld = 1.0L / 3;
  printf("%.20Lf\n", ld);
  printf("%p %p\n", (void *)0, (void *)0x1234);
  printf("[%5d|%-5d|%05d|%x|%X|%o|%+d]\n", 42, 42, 42, 255, 255, 8, 7);
  char buf[64];
  int n = snprintf(buf, 8, "%s", "truncated string");
  printf("snprintf: %d '%s'\n", n, buf);
  for (int i = 1; i <= 5; ++i) {
    void *p = malloc(i * 7);
    printf("malloc(%d) aligned16=%d\n", i * 7, (int)(((uintptr_t)p & 15) == 0));
  }
  int a[] = {5, 3, 9, 1, 7};
  qsort(a, 5, sizeof a[0], cmp);
  int key = 7;
  int *f = bsearch(&key, a, 5, sizeof a[0], cmp);
  printf("sorted: %d %d %d %d %d found=%ld\n", a[0], a[1], a[2], a[3], a[4], f ? (long)(f - a) : -1L);
  // Over 1 KiB: glibc's qsort sizes a heap buffer from sysconf(_SC_PHYS_PAGES) (sysinfo).
  static int big[2000];
  for (int i = 0; i < 2000; ++i)
    big[i] = (i * 7919) % 2003;
  qsort(big, 2000, sizeof big[0], cmp);
  printf("big sorted: %d %d %d\n", big[0], big[1000], big[1999]);
  printf("atof=%g strtod=%g atoi=%d\n", atof("2.5e3"), strtod("0x1p-3", NULL), atoi("  -17x"));
  fprintf(stderr, "to stderr\n");
  return 3;
}
