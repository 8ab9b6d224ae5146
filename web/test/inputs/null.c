// Reads through a null pointer after linking printf, whose C runtime
// objects carry ELF null symbols (absolute 0): the fault must read as a
// null pointer, never as one of those symbols.
#include <stdio.h>

int main(void) {
  printf("reading\n");
  return *(volatile int *)0;
}
