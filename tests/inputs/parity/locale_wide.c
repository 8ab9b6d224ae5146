// Locales and wide characters: the "C" locale glibc has built in and
// "C.UTF-8", which it loads from /usr/lib/locale/C.utf8 (served by the
// executor). Multibyte <-> wide conversions, classification, wide printf.
// The narrow reports go to stderr: stdout stays free to become
// wide-oriented at the end (wprintf, putwchar, fputws).
#define _GNU_SOURCE
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>
#include <wctype.h>

static void show(const char *What, const char *Got) { fprintf(stderr, "%s -> %s\n", What, Got ? Got : "(null)"); }

static void conversions(void) {
  const char *Mb = "h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80!";
  wchar_t W[64];
  size_t N = mbstowcs(W, Mb, 64);
  fprintf(stderr, "  %s: MB_CUR_MAX=%zu mbstowcs=%zd:", nl_langinfo(CODESET), MB_CUR_MAX, (ssize_t)N);
  for (size_t I = 0; N != (size_t)-1 && I < N; ++I)
    fprintf(stderr, " %lx", (unsigned long)W[I]);
  char Out[32];
  const wchar_t Src[] = {L'a', 0xe9, 0x20ac, 0x1f600, 0};
  size_t M = wcstombs(Out, Src, sizeof Out);
  fprintf(stderr, "\n  wcstombs=%zd:", (ssize_t)M);
  for (size_t I = 0; M != (size_t)-1 && I < M; ++I)
    fprintf(stderr, " %02x", (unsigned char)Out[I]);
  mbstate_t St;
  memset(&St, 0, sizeof St);
  wchar_t Wc = 0;
  size_t Part = mbrtowc(&Wc, "\xe2\x82", 2, &St);
  size_t Rest = mbrtowc(&Wc, "\xac", 1, &St);
  fprintf(stderr, "\n  mblen=%d mbrtowc partial=%zd rest=%zd wc=%lx wcrtomb=%zd\n", mblen("\xc3\xa9", 2), (ssize_t)Part,
          (ssize_t)Rest, (unsigned long)Wc, (ssize_t)wcrtomb(Out, 0xe9, &St));
  fprintf(stderr,
          "  iswalpha(e9)=%d iswupper(c9)=%d towupper(e9)=%lx towlower(391)=%lx wcwidth(4e00)=%d wcwidth(301)=%d\n",
          !!iswalpha(0xe9), !!iswupper(0xc9), (unsigned long)towupper(0xe9), (unsigned long)towlower(0x391),
          wcwidth(0x4e00), wcwidth(0x301));
  fprintf(stderr, "  btowc(e9)=%lx wctob(e9)=%d strcoll=%d wcscoll=%d\n", (unsigned long)btowc(0xe9), wctob(0xe9),
          strcoll("abc", "abd") < 0, wcscoll(L"\xe9", L"z") > 0);
  wchar_t Buf[80];
  int K = swprintf(Buf, 80, L"%ls|%d|%5.2f|%lc|%s", L"wide\x263a", 42, 3.14159, (wint_t)0xe9, "narrow\xc3\xa9");
  fprintf(stderr, "  swprintf=%d:", K);
  for (int I = 0; I < K; ++I)
    fprintf(stderr, " %lx", (unsigned long)Buf[I]);
  fprintf(stderr, "\n  printf %%ls: [%ls] [%lc]\n", L"\xe9t\xe9", (wint_t)0x20ac);
}

int main(void) {
  show("query", setlocale(LC_ALL, NULL));
  conversions();
  show("C.UTF-8", setlocale(LC_ALL, "C.UTF-8"));
  conversions();
  show("LC_NUMERIC C", setlocale(LC_NUMERIC, "C"));
  show("query", setlocale(LC_ALL, NULL));
  show("LC_CTYPE C.utf8", setlocale(LC_CTYPE, "C.utf8"));
  show("en_US.UTF-8", setlocale(LC_ALL, "en_US.UTF-8"));
  show("xx_YY", setlocale(LC_ALL, "xx_YY"));
  show("POSIX", setlocale(LC_ALL, "POSIX"));
  show("C.UTF-8 again", setlocale(LC_ALL, "C.UTF-8"));
  struct lconv *L = localeconv();
  fprintf(stderr, "decimal '%s' thousands '%s' currency '%s'\n", L->decimal_point, L->thousands_sep,
          L->currency_symbol);
  char T[64];
  time_t When = 1700000000;
  strftime(T, sizeof T, "%c|%x|%X|%p", gmtime(&When));
  fprintf(stderr, "strftime %s\n", T);
  fprintf(stderr, "D_T_FMT '%s' YESEXPR '%s'\n", nl_langinfo(D_T_FMT), nl_langinfo(YESEXPR));
  // stdout becomes wide-oriented: everything after goes through wprintf.
  wprintf(L"wprintf: %ls %d %lc %s\n", L"\xe9t\xe9", 7, (wint_t)0x20ac, "ok");
  putwchar(0x263a);
  putwchar(L'\n');
  fputws(L"fputws \x4e2d\x6587\n", stdout);
  wprintf(L"fwide=%d\n", fwide(stdout, 0));
  fputws(L"wide to a byte-oriented stderr fails\n", stderr);
  wprintf(L"ferror(stderr)=%d\n", ferror(stderr));
  setlocale(LC_ALL, "C");
  wprintf(L"C locale: %ls|%lc\n", L"\xe9", (wint_t)0x263a);
  return 0;
}
