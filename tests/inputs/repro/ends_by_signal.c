// Ends itself by a signal after printing: abort() (SIGABRT), or with an
// argument raise(SIGTERM). Neither is a fault: the executor reports the
// signal the program sent itself.
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  (void)argv;
  printf("ending\n");
  fflush(stdout);
  if (argc > 1)
    raise(SIGTERM);
  abort();
}
