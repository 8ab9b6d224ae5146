// Reads through a null pointer (argc 1) or a null struct pointer's field at
// offset 0x10 (argc 2), after linking printf (whose libc.a members carry
// ELF null symbols, an absolute 0).
#include <stdio.h>

struct Node {
  long key, value, next;
};

int main(int argc, char **argv) {
  struct Node *volatile N = 0;
  printf("reading\n");
  fflush(stdout);
  return argc > 1 ? (int)N->next : (int)N->key;
}
