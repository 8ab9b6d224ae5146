/* The frame between tests/inputs/debug/unwind.c's leaf and order, built
   with -O2: no frame pointer, a callee-saved register pushed or stored. */
int middle(int (*f)(int), int x) {
  int r = f(x + 1);
  return r + x; /* after the call: not a tail call */
}
