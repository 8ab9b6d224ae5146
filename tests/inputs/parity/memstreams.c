// fmemopen (read, write, w+, a+, bad arguments), open_memstream and
// open_wmemstream growing and seeking, fopencookie.
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
int main(void) {
  char buf[64] = "hello memory stream\nsecond line\n";
  FILE *f = fmemopen(buf, strlen(buf), "r");
  char line[32];
  while (fgets(line, sizeof line, f))
    printf("read: %s", line);
  printf("eof=%d ftell=%ld\n", feof(f), ftell(f));
  fseek(f, 6, SEEK_SET);
  printf("after seek: %c\n", fgetc(f));
  fclose(f);
  char wb[16];
  f = fmemopen(wb, sizeof wb, "w");
  int r = fprintf(f, "%s", "0123456789abcdefXYZ");
  fflush(f);
  printf("write r=%d pos=%ld\n", r, ftell(f));
  fclose(f);
  printf("wb=%.16s\n", wb);
  f = fmemopen(NULL, 32, "w+");
  fputs("auto buffer", f);
  rewind(f);
  fgets(line, sizeof line, f);
  printf("w+: %s\n", line);
  fclose(f);
  f = fmemopen(buf, sizeof buf, "a+");
  fputs("++", f);
  fflush(f);
  printf("a+ pos=%ld\n", ftell(f));
  fclose(f);
  printf("buf=%s", buf);
  errno = 0;
  f = fmemopen(buf, 0, "r");
  printf("size0=%s errno=%d\n", f ? "stream" : "null", errno);
  if (f)
    fclose(f);
  errno = 0;
  f = fmemopen(buf, 10, "z");
  printf("badmode=%s errno=%d\n", f ? "stream" : "null", errno);
  char *p = NULL;
  size_t sz = 0;
  f = open_memstream(&p, &sz);
  for (int i = 0; i < 1000; ++i)
    fprintf(f, "%d,", i);
  fflush(f);
  printf("memstream size=%zu head=%.20s\n", sz, p);
  fseek(f, 5, SEEK_SET);
  fputs("XX", f);
  fclose(f);
  printf("after close size=%zu head=%.20s\n", sz, p);
  free(p);
  wchar_t *wp;
  f = open_wmemstream(&wp, &sz);
  fwprintf(f, L"%d-%ls", 12, L"wide");
  fclose(f);
  printf("wmem size=%zu %ls\n", sz, wp);
  free(wp);
  char sb[8];
  f = fmemopen(sb, sizeof sb, "w");
  setvbuf(f, NULL, _IONBF, 0);
  r = fputs("123456789", f);
  printf("unbuffered r=%d err=%d\n", r, ferror(f));
  fclose(f);
  FILE *c = fopencookie(NULL, "w", (cookie_io_functions_t){0});
  printf("cookie=%d\n", c != NULL);
  if (c)
    fclose(c);
  return 0;
}
