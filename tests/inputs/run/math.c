// libm reached from C: a browser fetches libm.a for it, not libstdc++.a
// (wasm-bindings/test/runtime-files.test.mjs, web/test/playground.test.mjs).
#include <math.h>
#include <stdio.h>

int main(int argc, char **argv) {
  double x = argc + 1.0;
  printf("sqrt %.6f cos %.6f pow %.1f\n", sqrt(x), cos(x), pow(x, 10));
  return 0;
}
