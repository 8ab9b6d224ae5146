// Compiled -fPIC: every call to a global function goes through the PLT (a
// stub) and every global variable is reached through a GOT entry, so the
// linker builds a table entry per name and may relax some of them.
#include <stdio.h>

extern int counter, limit;
extern const char *names[];
int add(int, int);
int mul(int, int);
int sub(int, int);
typedef int (*binop)(int, int);
extern binop ops[];

int main(void) {
  for (counter = 0; counter < limit; ++counter) {
    binop f = ops[counter];
    printf("%s(%d, 3) = %d\n", names[counter], counter + 5, f(counter + 5, 3));
  }
  printf("add(mul(2, 3), sub(9, 4)) = %d\n", add(mul(2, 3), sub(9, 4)));
  return 0;
}
