// argv as given with -args, and an exit code computed from it.
#include <stdio.h>
#include <string.h>

int main(int argc, char *argv[]) {
  size_t total = 0;
  for (int i = 0; i < argc; ++i) {
    printf("argv[%d] = \"%s\" (%zu)\n", i, argv[i], strlen(argv[i]));
    total += strlen(argv[i]);
  }
  printf("argc %d, argv[argc] %s\n", argc, argv[argc] ? "non-null" : "null");
  return (int)(total % 256);
}
