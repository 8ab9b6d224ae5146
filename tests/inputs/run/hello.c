// printf with format arguments, puts, and stderr output.
#include <stdio.h>

int main(void) {
  printf("hello, %s! %d %u %x %c %5.2s|\n", "world", -42, 42u, 0xbeef, 'z', "abc");
  puts("puts line");
  fprintf(stderr, "to stderr %ld\n", 1234567890123L);
  return 0;
}
