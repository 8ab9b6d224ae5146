// Constructors, atexit/on_exit handlers and destructors around exit(), with
// a line left in stdout's buffer.
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static void a1(void) { printf("atexit 1\n"); }
static void a2(void) { printf("atexit 2\n"); }
static void on(int st, void *arg) { printf("on_exit status=%d arg=%s\n", st, (char *)arg); }
static void q1(void) { printf("quick 1\n"); }
__attribute__((destructor)) static void dtor(void) { printf("destructor\n"); }
__attribute__((constructor)) static void ctor(void) { printf("constructor\n"); }
int main(int argc, char **argv) {
  atexit(a1);
  on_exit(on, "x");
  atexit(a2);
  at_quick_exit(q1);
  printf("buffered line without newline");
  fprintf(stderr, "stderr first\n");
  int mode = argc > 1 ? argv[1][0] : 'r';
  switch (mode) {
  case 'a':
    exit(5);
  case 'q':
    quick_exit(6);
  case 'u':
    _exit(7);
  case 'E':
    _Exit(8);
  default:
    return 9;
  }
}
