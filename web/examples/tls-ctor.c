// What a C runtime sets up before main, on every architecture: a
// constructor runs first, and errno lives in thread-local storage (glibc
// keeps it there), so strtol's overflow report reaches main only
// if the executor installed the TLS image. `depth` is a thread-local of the
// program's own, with an initial value from its .tdata.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

static _Thread_local int depth = 40;
static int constructed;

__attribute__((constructor)) static void before_main(void) {
  constructed = 1;
  depth++;
  puts("constructor: runs before main");
}

int main(void) {
  errno = 0;
  long v = strtol("123456789012345678901234567890", NULL, 10);
  printf("strtol overflow: %ld, errno %s\n", v, errno == ERANGE ? "ERANGE" : "not set");
  printf("thread-local depth = %d, constructed = %d\n", ++depth, constructed);
  return errno == ERANGE && depth == 42 && constructed ? 0 : 1;
}
