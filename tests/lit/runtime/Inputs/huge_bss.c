// A terabyte of zero-fill beside ordinary code, data and read-only data: the
// executor cannot reserve it.
#include <stdio.h>

char huge[1L << 40];
int counter = 1;

int main(void) {
  puts("unreachable: the link fails");
  return huge[counter];
}
