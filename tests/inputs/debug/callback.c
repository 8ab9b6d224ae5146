/* A function the C runtime calls back (qsort's comparison): a backtrace
   from it runs through the runtime's own frames, which have symbols and
   call-frame information but no DWARF, to main. */
#include <stdio.h>
#include <stdlib.h>

static int order(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

int main(void) {
  int v[4] = {3, 1, 2, 0};
  qsort(v, 4, sizeof v[0], order);
  printf("first %d\n", v[0]);
  return 0;
}
