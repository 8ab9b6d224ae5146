/* A stop two calls deep under the C runtime, whose backtrace the package's
   debugger must give as gdb does: leaf (here, -O0) called by middle
   (unwind_mid.c, -O2) called by order, qsort's comparison function, under
   the runtime's qsort, under main. */
#include <stdio.h>
#include <stdlib.h>

int middle(int (*f)(int), int x);
int seen = 0;

int leaf(int x) {
  seen += x; /* the stop */
  return x * 3;
}

static int order(const void *a, const void *b) { return middle(leaf, *(const int *)a) - middle(leaf, *(const int *)b); }

int main(void) {
  int v[4] = {3, 1, 2, 0};
  qsort(v, 4, sizeof v[0], order);
  printf("first %d seen %d\n", v[0], seen);
  return 0;
}
