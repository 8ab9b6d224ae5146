/* The second object of tests/inputs/debug/main.c's program. */
int counter = 0;

int scale(int x, int by) {
  int product = x * by;
  counter = counter + 1;
  return product + counter;
}

void poke(int *p) {
  *p = 42; /* the fault line */
}
