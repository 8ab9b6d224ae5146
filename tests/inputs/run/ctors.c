// Constructors (with priorities) run before main, destructors after exit.
#include <stdio.h>

static int order[4], count;

__attribute__((constructor(200))) static void late(void) { order[count++] = 200; }
__attribute__((constructor(101))) static void early(void) { order[count++] = 101; }
__attribute__((constructor)) static void plain(void) { order[count++] = 65535; }
__attribute__((destructor)) static void bye(void) { printf("destructor ran\n"); }

int main(void) {
  printf("constructors ran %d times:", count);
  for (int i = 0; i < count; ++i)
    printf(" %d", order[i]);
  printf("\n");
  return count;
}
