// exit() from a nested call, after atexit handlers registered in order.
#include <stdio.h>
#include <stdlib.h>

static void first(void) { printf("atexit first (runs last)\n"); }
static void second(void) { printf("atexit second (runs first)\n"); }

static void leave(int code) {
  printf("leaving with %d\n", code);
  exit(code);
}

int main(int argc, char *argv[]) {
  atexit(first);
  atexit(second);
  leave(argc + 40);
  printf("not reached\n");
  return 1;
}
