#include "shapes.h"

struct shape shapes[] = {
    {"square", 0, 3, 3}, {"rectangle", 1, 2, 5}, {"triangle", 2, 4, 6}, {"line", 3, 7, 0},
};
int shape_count = sizeof shapes / sizeof shapes[0];
static const int sides[] = {4, 4, 3, 1};

int area(const struct shape *s) {
  switch (s->kind) {
  case 0: return s->a * s->a;
  case 1: return s->a * s->b;
  case 2: return s->a * s->b / 2;
  case 3: return 0;
  case 4: return -1;
  case 5: return -2;
  default: return -3;
  }
}

int perimeter(const struct shape *s) { return sides[s->kind] * (s->a > s->b ? s->a : s->b); }
