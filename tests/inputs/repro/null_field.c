// Reads a field through a null struct pointer (address 0x10) after
// printing: a fault whose kind, pc, address and symbol a bundle records.
#include <stdio.h>

struct Node {
  long key, value, next;
};

int main(void) {
  struct Node *volatile N = 0;
  printf("reading\n");
  fflush(stdout);
  return (int)N->next;
}
