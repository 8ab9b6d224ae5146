// Misbehaving programs, one per argv[1]: each must end with a clear error.
#include <stdlib.h>
#include <string.h>

volatile int sink;
char *volatile kept; // an escaping pointer: the allocations cannot be elided

__attribute__((noinline)) void spin(void) {
  for (;;)
    sink++;
}
__attribute__((noinline)) int read_bad(int *p) { return *p; }
__attribute__((noinline)) void eat_memory(void) {
  for (;;) {
    char *p = malloc(1 << 20);
    if (!p)
      exit(3); // out of heap address space, not capped
    kept = p;
    memset(p, 1, 1 << 20);
  }
}

int main(int argc, char *argv[]) {
  if (argc < 2)
    return 0;
  switch (argv[1][0]) {
  case 's': spin(); break;
  case 'r': return read_bad((int *)(long)0x123458); // unmapped data address
  case 'm': eat_memory(); break;
  case 'i': __builtin_trap(); break; // ud2 / brk #1000 / unimp
  case 'j': ((void (*)(void))(long)0x7770000)(); break;
  }
  return 0;
}
