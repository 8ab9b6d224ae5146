// Runs until stopped: the browser tests kill its executor mid-run.
#include <stdio.h>

int main(void) {
  printf("spinning\n");
  fflush(stdout);
  for (volatile unsigned long i = 0;; ++i) {
  }
}
