// Asks for 256 MiB and touches it: past a run's memory limit the executor
// ends the run with "memory limit".
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  size_t n = (size_t)256 << 20;
  char *volatile p = malloc(n); // volatile: the compiler may not drop the allocation
  if (!p) { puts("malloc failed"); return 1; }
  memset(p, 1, n);
  printf("%d\n", p[n - 1]);
  return 0;
}
