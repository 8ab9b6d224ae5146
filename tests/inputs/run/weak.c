// Weak definitions lose to strong ones in another object (weak_strong.c);
// an undefined weak reference is null.
#include <stdio.h>

__attribute__((weak)) int pick(void) { return 1; }
__attribute__((weak)) const char *label(void) { return "weak label"; }
extern int absent(void) __attribute__((weak));

int main(void) {
  printf("pick %d, %s, absent %s\n", pick(), label(), absent ? "linked" : "null");
  return pick();
}
