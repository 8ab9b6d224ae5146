// printf: every conversion, length modifier and flag, widths and precisions
// from arguments, positional arguments, %n, snprintf/asprintf/dprintf.
#define _GNU_SOURCE
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <wchar.h>
int main(void) {
  int n1 = 0;
  short n2 = 0;
  signed char n3 = 0;
  long n4 = 0;
  printf("[%d][%i][%u][%o][%x][%X][%c][%s][%%]\n", -42, 42, 42u, 42u, 0xbeefu, 0xbeefu, 'Z', "str");
  printf("[%hhd][%hd][%ld][%lld][%jd][%zd][%td][%hhu][%hu][%lu][%llu][%zu]\n", (signed char)200, (short)70000, LONG_MIN,
         LLONG_MIN, INTMAX_MAX, (ssize_t)-5, (ptrdiff_t)-7, (unsigned char)300, (unsigned short)70000, ULONG_MAX,
         ULLONG_MAX, (size_t)123);
  printf("[%-8d][%08d][%+d][% d][%+ d][%#o][%#x][%#X][%#08x][%-#8x][%.0d][%.5d][%8.3d][%-8.3d]\n", 5, -5, 5, 5, 5, 8,
         255, 255, 255, 255, 0, 42, 42, -42);
  printf("[%*d][%-*d][%.*d][%*.*d][%*d]\n", 6, 1, 6, 2, 4, 3, 7, 3, 4, -6, 9);
  printf("[%10s][%-10s][%.3s][%10.2s][%.*s][%c][%-3c][%3c]\n", "abc", "abc", "abcdef", "abcdef", 2, "xyz", 'a', 'b',
         'c');
  double v[] = {0,        -0.0, 1,   -1.5, 0.1, 123456.789, 1e-5, 1e15, 1e16, 1e-300, 1.7976931348623157e308,
                4.9e-324, 0.5,  2.5, 1e21};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; ++i)
    printf("[%f][%.0f][%#.0f][%e][%.2E][%g][%G][%#g][%.0g][%.10g][%a][%A][%.3a][%+10.3f][%-12.4e][%012.3f][% g]\n",
           v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i]);
  printf("[%Lf][%Le][%Lg][%La]\n", 1.0L / 3, 1e4000L, 1e-4000L, 1.0L);
  printf("[%p][%p][%10p][%-10p]\n", (void *)0, (void *)0xdeadbeef, (void *)1, (void *)2);
  printf("[%ls][%lc][%5ls][%.2ls]\n", L"wide", (wint_t)L'w', L"ab", L"abcd");
  printf("abc%n", &n1);
  printf("de%hn", &n2);
  printf("f%hhn", &n3);
  printf("gh%ln\n", &n4);
  printf("n=%d %d %d %ld\n", n1, n2, n3, n4);
  printf("[%1$s %2$d %1$s %3$.*4$f]\n", "pos", 7, 3.14159, 2);
  printf("[%'d][%I d]\n", 1234567, 89);
  printf("[%5%][%-5%]\n");
  printf("[%m]\n");
  printf("[%b][%B]\n", 5u, 10u);
  char big[5000];
  int len = snprintf(big, sizeof big, "%4000d|%.1000f", 1, 1.0);
  printf("len=%d tail=%s\n", len, big + len - 4);
  len = snprintf(NULL, 0, "%s%d", "abc", 12345);
  printf("snprintf NULL=%d\n", len);
  char *s;
  len = asprintf(&s, "%08.3f|%x", -3.14159, 48879);
  printf("asprintf=%d %s\n", len, s);
  len = dprintf(1, "dprintf %d\n", 9);
  fflush(stdout);
  printf("ret=%d\n", printf("%s", ""));
  return 0;
}
