// abort() with a SIGABRT handler that returns: the handler runs, then glibc
// restores the default action and raises again, so the process still ends
// killed by SIGABRT (134 from a shell).
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void onAbort(int Sig) {
  static const char Msg[] = "SIGABRT handler ran and returns\n";
  write(2, Msg, sizeof Msg - 1);
}

int main(void) {
  signal(SIGABRT, onAbort);
  puts("before abort");
  fflush(stdout);
  abort();
}
