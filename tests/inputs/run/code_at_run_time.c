// Code the program writes at run time into an executable mapping and calls,
// rewritten between calls (a JIT's pattern): each call must run the code as
// last written, whether the caller is Arm or Thumb code. On the executor's
// fast paths a store to a page that holds translated code is the one that
// must drop that code (emulator/direct_memory.cpp, faults).
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

typedef int (*Fn)(void);

// Writes "return N" at P and returns it as a function.
static Fn emitReturn(uint8_t *P, unsigned N) {
#if defined(__i386__)
  const uint8_t Code[] = {0xb8, (uint8_t)N, 0, 0, 0, 0xc3}; // mov $N, %eax; ret
#elif defined(__arm__)
  const uint32_t Code[] = {0xe3a00000u | N, 0xe12fff1eu}; // mov r0, #N; bx lr (Arm state)
#else
#error "an arch this test knows the instructions of"
#endif
  memcpy(P, Code, sizeof Code);
  __builtin___clear_cache((char *)P, (char *)P + sizeof Code);
  return (Fn)(uintptr_t)P;
}

int main(void) {
  uint8_t *P = mmap(0, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (P == MAP_FAILED)
    return 1;
  int Sum = 0;
  for (unsigned N = 1; N <= 5; ++N)
    Sum = Sum * 10 + emitReturn(P, N)();
  // Code in the second half of the page, then the first half again.
  for (unsigned N = 6; N <= 9; ++N)
    Sum = Sum * 10 + emitReturn(P + (N % 2) * 2048, N)();
  printf("%d\n", Sum);
  return 0;
}
