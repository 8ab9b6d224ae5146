// The native reference for freestanding programs whose entry is run():
// prints what run() returns.
#include <stdio.h>
int run(void);
int main(void) { printf("%d\n", run()); return 0; }
