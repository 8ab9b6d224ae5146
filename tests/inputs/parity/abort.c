// abort(): SIGABRT, reported as a shell reports a killed process (134).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  fputs("about to abort\n", stderr);
  abort();
}
