// llvm/docs/JITLink.rst, "Harness mode": the doc elides the bodies ("some
// function of X", "..."); they are filled in minimally so the file compiles.
#include <stdio.h>

void irrelevant_external(void);

void irrelevant_function() { irrelevant_external(); }

int function_to_mock(int X) {
  return X * 2;
}

static void function_to_test() {
  int Y = function_to_mock(7);
  printf("Y is %i\n", Y);
}
