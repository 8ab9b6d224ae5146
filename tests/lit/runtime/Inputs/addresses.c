// Prints where the link put its own code and data and the C runtime's
// printf, as -noexec -show-addrs spells addresses (16 hex digits).
#include <stdint.h>
#include <stdio.h>

const char msg[] = "hi";
int counter = 3;
int zeros[100];

static unsigned long long at(uintptr_t A) {
#ifdef __arm__
  A &= ~(uintptr_t)1; // a Thumb function's address has bit 0 set; -show-addrs has its start
#endif
  return A;
}

int main(void) {
  printf("main 0x%016llx\n", at((uintptr_t)main));
  printf("msg 0x%016llx\n", at((uintptr_t)msg));
  printf("counter 0x%016llx\n", at((uintptr_t)&counter));
  printf("zeros 0x%016llx\n", at((uintptr_t)zeros));
  printf("printf 0x%016llx\n", at((uintptr_t)printf));
  return counter - 3;
}
