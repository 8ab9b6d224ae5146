// Globals, initialized pointers between data objects, a table of function
// pointers, and a string table: relocations in .data and .rodata.
#include <stdio.h>

struct op { const char *name; int (*fn)(int, int); };
static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }
int divide(int a, int b) { return b ? a / b : 0; }

const struct op ops[] = {{"add", add}, {"sub", sub}, {"mul", mul}, {"div", divide}};
int counter = 7;
int *counter_ptr = &counter;
static const char *const words[] = {"alpha", "beta", "gamma"};
const char *const *word_table = words;
long big[100];

int main(void) {
  for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; ++i)
    printf("%s(12, 4) = %d\n", ops[i].name, ops[i].fn(12, 4));
  *counter_ptr += 5;
  for (int i = 0; i < 100; ++i)
    big[i] = (long)i * counter;
  printf("counter %d, big[99] %ld, %s %s %s\n", counter, big[99], word_table[0], word_table[1], word_table[2]);
  return counter;
}
