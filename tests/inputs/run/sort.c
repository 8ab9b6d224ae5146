// qsort with a callback, bsearch, and snprintf into a buffer.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_value(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}
static int by_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

int main(void) {
  int v[32];
  unsigned seed = 12345;
  for (int i = 0; i < 32; ++i) {
    seed = seed * 1103515245u + 12345u;
    v[i] = (int)(seed >> 16) % 1000;
  }
  qsort(v, 32, sizeof v[0], by_value);
  char line[512];
  int len = 0;
  for (int i = 0; i < 32; ++i)
    len += snprintf(line + len, sizeof line - len, "%d%s", v[i], i < 31 ? "," : "");
  printf("%s\n", line);
  const char *names[] = {"pear", "apple", "fig", "banana", "cherry"};
  qsort(names, 5, sizeof names[0], by_name);
  for (int i = 0; i < 5; ++i)
    printf("%s ", names[i]);
  int key = v[10];
  int *found = bsearch(&key, v, 32, sizeof v[0], by_value);
  printf("\nfound %d at %d, snprintf length %d\n", key, (int)(found - v), len);
  return 0;
}
