#include "shapes.h"

static int (*const measures[])(const struct shape *) = {area, perimeter};

// The entry point: a value computed through every file, 6519 when linked right.
int run(void) {
  long h = 7;
  for (int i = 0; i < shape_count; ++i) {
    for (int m = 0; m < 2; ++m)
      h = mix(h, apply(measures[m], i));
    h = mix(h, str_len(shapes[i].name));
  }
  checksum = h;
  return (int)(h % 10007);
}
