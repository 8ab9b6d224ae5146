// llvm/docs/JITLink.rst, "Harness mode": the doc elides the bodies ("some
// function of X", "..."); they are filled in minimally so the file compiles.
// clang emits no code for an unreferenced static function, so the function
// under test is marked `used` (as a build would keep it for a harness).
#include <stdio.h>

void irrelevant_external(void);

void irrelevant_function() { irrelevant_external(); }

int function_to_mock(int X) {
  return X * 2;
}

__attribute__((used)) static void function_to_test() {
  int Y = function_to_mock(7);
  printf("Y is %i\n", Y);
}
