// Writes 100 lines of 1 KiB, then exits 3: past a server's output limit
// of 64 KiB the executor keeps the first 64 KiB and says it cut the rest.
#include <stdio.h>
#include <string.h>

int main(void) {
  char line[1024];
  memset(line, 'y', sizeof line - 1);
  line[sizeof line - 1] = '\n';
  for (int i = 0; i < 100; i++) fwrite(line, 1, sizeof line, stdout);
  return 3;
}
