/* Thread-local variables read and written through every TLS model a
   compiler picks (local-exec, initial-exec, general- and local-dynamic,
   TLS descriptors); the same output natively and under linklab. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__thread int counter = 5;
__thread long big[4];
static __thread int local_tls = 11;
extern __thread char name[16];
__thread char name[16] = "tls";

static int bump(void) {
  big[2] += counter;
  return ++counter + local_tls + (int)big[2];
}

int main(void) {
  int first = bump();
  int second = bump();
  strcat(name, "-ok");
  errno = 0;
  long huge = strtol("99999999999999999999999", 0, 10); /* ERANGE in errno, thread-local in the libc */
  printf("%d %d %s %ld errno-erange=%d\n", first, second, name, big[2], huge == LONG_MAX && errno == ERANGE);
  return second;
}
