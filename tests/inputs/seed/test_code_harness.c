// llvm/docs/JITLink.rst, "Harness mode" (the doc's `function_to_test():`
// typo is written with a semicolon).
#include <stdio.h>

void function_to_test();

int function_to_mock(int X) {
  printf("used mock utility function\n");
  return 42;
}

int main(int argc, char *argv[]) {
  function_to_test();
  return 0;
}
