// Entered with -entry=greet, or called through a plan with -call=scaled,
// not through main: the C runtime must be initialised before (malloc,
// stdio, TLS, this constructor) and stdout flushed after (it is a pipe:
// fully buffered), as llvm-jitlink's run of the same object in its own
// initialised process does.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int Ready;
__attribute__((constructor)) static void init(void) { Ready = 42; }

int greet(int argc, char **argv) {
  char *Text = malloc(64);
  snprintf(Text, 64, "argc=%d ready=%d", argc, Ready);
  printf("%s last=%s len=%zu\n", Text, argv[argc - 1], strlen(Text));
  free(Text);
  return 7;
}

int scaled(int A, int B) {
  char *Text = malloc(32);
  snprintf(Text, 32, "%d*%d", A, B);
  printf("scaled(%s) ready=%d\n", Text, Ready);
  free(Text);
  return A * B + Ready;
}

int main(void) { return 1; }
