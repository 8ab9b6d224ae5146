/* The program tests/debug/gdb_test.py debugs: main here, the callee in
   calls.c (a second object, reached through a stub or PLT entry when the
   linker makes one). argv[1] "fault" makes it write through a null
   pointer. */
#include <stdio.h>
#include <string.h>

extern int counter;
int scale(int x, int by);
void poke(int *p);

int total = 7;

int main(int argc, char **argv) {
  int local = 5;
  for (int i = 0; i < 3; ++i)
    total += scale(local, i);
  printf("total %d counter %d\n", total, counter);
  if (argc > 1 && strcmp(argv[1], "fault") == 0)
    poke(0);
  return total % 256 == 0 ? 1 : 3;
}
