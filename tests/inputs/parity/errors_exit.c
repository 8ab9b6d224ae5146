// errno and strerror texts, perror on stderr, atexit order and the exit
// status, as glibc gives them.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void first(void) { puts("atexit: registered first, runs last"); }
static void second(void) { puts("atexit: registered second, runs first"); }

int main(int argc, char **argv) {
  atexit(first);
  atexit(second);
  for (int e = 0; e < 5; ++e)
    printf("%d: %s\n", e, strerror(e));
  printf("EDOM: %s\nEILSEQ: %s\n", strerror(EDOM), strerror(EILSEQ));
  errno = 0;
  double r = strtod("1e999", NULL);
  printf("strtod(1e999)=%f errno=%d\n", r, errno);
  errno = ENOSPC;
  perror("perror");
  errno = 0;
  printf("sqrt(-1) isnan=%d\n", isnan(sqrt(-1.0)));
  printf("argv[0] ends in %s\n", strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0]);
  fflush(stdout);
  exit(argc + 40);
}
