// Variadic functions (va_arg of structs, va_copy, vsnprintf), structs passed
// and returned by value in registers and memory, many mixed arguments, and
// bitfield layout.
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
struct small {
  char c;
  short s;
};
struct pair {
  long a, b;
};
struct big {
  int v[9];
  double d;
};
struct mixed {
  float f;
  int i;
  double d;
};
struct fl {
  float x, y;
};
struct dd {
  double x, y;
};
struct bits {
  unsigned a : 3;
  signed b : 5;
  unsigned c : 12;
  unsigned long long d : 40;
  _Bool e : 1;
};
static double sumv(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; ++i) {
    switch (i % 5) {
    case 0:
      s += va_arg(ap, int);
      break;
    case 1:
      s += va_arg(ap, double);
      break;
    case 2:
      s += va_arg(ap, long long);
      break;
    case 3: {
      struct pair p = va_arg(ap, struct pair);
      s += p.a + p.b;
      break;
    }
    case 4: {
      struct big b = va_arg(ap, struct big);
      s += b.v[8] + b.d;
      break;
    }
    }
  }
  va_end(ap);
  return s;
}
static void vp(const char *fmt, ...) {
  va_list ap, aq;
  va_start(ap, fmt);
  va_copy(aq, ap);
  vprintf(fmt, ap);
  char b[100];
  vsnprintf(b, sizeof b, fmt, aq);
  printf("[%s]", b);
  va_end(aq);
  va_end(ap);
  putchar('\n');
}
__attribute__((noinline)) static struct small mks(char c, short s) {
  struct small r = {c, s};
  return r;
}
__attribute__((noinline)) static struct pair mkp(struct pair p, long k) {
  p.a *= k;
  p.b += k;
  return p;
}
__attribute__((noinline)) static struct big mkb(struct big b) {
  for (int i = 0; i < 9; ++i)
    b.v[i] *= 2;
  b.d /= 2;
  return b;
}
__attribute__((noinline)) static struct mixed mkm(struct mixed m, float f, double d) {
  m.f += f;
  m.d *= d;
  m.i++;
  return m;
}
__attribute__((noinline)) static struct fl mkf(struct fl a, struct fl b) {
  struct fl r = {a.x * b.x, a.y + b.y};
  return r;
}
__attribute__((noinline)) static struct dd mkd(struct dd a, double s) {
  struct dd r = {a.x * s, a.y - s};
  return r;
}
__attribute__((noinline)) static long many(int a, long b, short c, char d, long long e, int f, int g, int h, int i,
                                           int j, double k, float l, double m, double n, double o, double p, double q,
                                           double r, double s, double t) {
  return a + b + c + d + e + f + g + h + i + j + (long)(k + l + m + n + o + p + q + r + s + t);
}
int main(void) {
  struct pair p = {3, 4};
  struct big b = {{1, 2, 3, 4, 5, 6, 7, 8, 9}, 2.5};
  printf("sumv=%g\n", sumv(10, 1, 2.5, 3LL, p, b, 6, 7.25, 8LL, p, b));
  vp("%d %s %c %5.2f %lld %p %%", 42, "str", 'x', 3.14159, -9LL, (void *)0x10);
  struct small s = mks('q', -300);
  printf("small %c %d\n", s.c, s.s);
  struct pair q = mkp(p, 5);
  printf("pair %ld %ld\n", q.a, q.b);
  struct big c = mkb(b);
  printf("big %d %d %g\n", c.v[0], c.v[8], c.d);
  struct mixed m = {1.5f, 7, 2.0};
  m = mkm(m, 0.25f, 3.0);
  printf("mixed %g %d %g\n", m.f, m.i, m.d);
  struct fl f = mkf((struct fl){2, 3}, (struct fl){4, 5});
  printf("fl %g %g\n", f.x, f.y);
  struct dd d = mkd((struct dd){2, 3}, 1.5);
  printf("dd %g %g\n", d.x, d.y);
  printf("many %ld\n", many(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1.5, 2.5f, 3, 4, 5, 6, 7, 8, 9, 10.5));
  struct bits x;
  memset(&x, 0, sizeof x);
  x.a = 9;
  x.b = -7;
  x.c = 4095;
  x.d = 0x123456789aULL;
  x.e = 1;
  printf("bits %u %d %u %llx %d size=%zu\n", x.a, x.b, x.c, (unsigned long long)x.d, x.e, sizeof x);
  unsigned char raw[sizeof x];
  memcpy(raw, &x, sizeof x);
  for (size_t i = 0; i < sizeof x; ++i)
    printf("%02x", raw[i]);
  printf("\n");
  return 0;
}
