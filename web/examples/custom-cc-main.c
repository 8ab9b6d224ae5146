// Calls scaled_sum (3*a + b), which takes its arguments in registers no C
// compiler would use, through a small adapter written in assembly. The
// Calling conventions panel calls scaled_sum directly through a plan.
#include <stdio.h>

long scaled_sum_c(long a, long b);

int main(void) {
  printf("scaled_sum(4, 5) = %ld\n", scaled_sum_c(4, 5));
  return 0;
}
