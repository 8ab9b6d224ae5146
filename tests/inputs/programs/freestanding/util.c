#include "shapes.h"

long checksum;
static int calls;

int str_len(const char *s) {
  int n = 0;
  while (s[n])
    ++n;
  return n;
}

int apply(int (*fn)(const struct shape *), int index) {
  ++calls;
  return fn(&shapes[index]);
}

long mix(long h, long v) { return (h * 31 + v) ^ calls; }
