// The smallest C program: one call into the C library.
#include <stdio.h>

int main(void) {
  printf("hello, world\n");
  return 0;
}
