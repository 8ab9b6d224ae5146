// sscanf: conversions, scansets, widths, suppression, %n, %m, overflow and
// partial input.
#include <stdio.h>
#include <string.h>
int main(void) {
  int a = -1, b = -1, n = -1;
  char s[32] = "", t[32] = "";
  double d = -1;
  float f = -1;
  unsigned u = 0;
  long l = 0;
  char c = '?';
  int r = sscanf("  42 -17 hello 3.5e2 world", "%d %d %31s %lf %31s", &a, &b, s, &d, t);
  printf("r=%d %d %d %s %g %s\n", r, a, b, s, d, t);
  r = sscanf("0x1f 0755 12abc", "%i %i %i%n", &a, &b, &n, &l);
  printf("r=%d %d %d %d\n", r, a, b, n);
  r = sscanf("12abc", "%i%n", &a, &n);
  printf("r=%d %d n=%d\n", r, a, n);
  r = sscanf("ff 777 1010", "%x %o %u", &u, &a, &b);
  printf("r=%d %u %d %d\n", r, u, a, b);
  r = sscanf("key=value;rest", "%31[^=]=%31[^;];%n", s, t, &n);
  printf("r=%d '%s' '%s' n=%d\n", r, s, t, n);
  r = sscanf("abc123", "%[a-c]%d", s, &a);
  printf("r=%d %s %d\n", r, s, a);
  r = sscanf("  x", " %c", &c);
  printf("r=%d '%c'\n", r, c);
  r = sscanf("  x", "%c", &c);
  printf("r=%d '%c'\n", r, c);
  r = sscanf("3.25 nan inf -0x1p3", "%f %lf %lf %lf", &f, &d, &d, &d);
  printf("r=%d %g %g\n", r, f, d);
  r = sscanf("", "%d", &a);
  printf("empty r=%d\n", r);
  r = sscanf("xyz", "%d", &a);
  printf("mismatch r=%d\n", r);
  r = sscanf("100 200", "%*d %d", &a);
  printf("suppress r=%d %d\n", r, a);
  r = sscanf("123456", "%3d%2d", &a, &b);
  printf("width r=%d %d %d\n", r, a, b);
  r = sscanf("99999999999999999999", "%d", &a);
  printf("overflow r=%d %d\n", r, a);
  r = sscanf("-5", "%u", &u);
  printf("neg unsigned r=%d %u\n", r, u);
  r = sscanf("25%", "%d%%", &a);
  printf("percent r=%d %d\n", r, a);
  char *m = NULL;
  r = sscanf("dynamic string", "%ms", &m);
  printf("ms r=%d %s\n", r, m);
  short h;
  signed char hh;
  long long ll;
  r = sscanf("40000 300 -9000000000", "%hd %hhd %lld", &h, &hh, &ll);
  printf("sizes r=%d %d %d %lld\n", r, h, hh, ll);
  r = sscanf("1.5e", "%lf%s", &d, s);
  printf("partial exp r=%d %g '%s'\n", r, d, s);
  r = sscanf("0x", "%i%s", &a, s);
  printf("0x r=%d %d '%s'\n", r, a, s);
  r = sscanf("a b", "%s%n %s", s, &n, t);
  printf("n mid r=%d %d\n", r, n);
  void *p;
  r = sscanf("0x1234", "%p", &p);
  printf("p r=%d %p\n", r, p);
  return 0;
}
