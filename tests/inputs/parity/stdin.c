// Reading stdin (fed through a pipe, stdin.stdin): getchar, ungetc, fgets,
// scanf, read(2) and end of file; fd 0 is a pipe, not a terminal.
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
  struct stat St;
  int R = fstat(0, &St);
  printf("fstat(0): %d, a pipe: %d, isatty: %d\n", R, S_ISFIFO(St.st_mode), isatty(0));
  int C = getchar();
  printf("first char: '%c'\n", C);
  ungetc(C, stdin);
  char Line[256];
  if (fgets(Line, sizeof Line, stdin))
    printf("fgets: [%.*s]\n", (int)strcspn(Line, "\n"), Line);
  int N;
  double D;
  char Word[64];
  int Got = scanf("%d %lf %63s", &N, &D, Word);
  printf("scanf: %d -> %d %.2f %s\n", Got, N, D, Word);
  int Lines = 0;
  size_t Bytes = 0;
  while (fgets(Line, sizeof Line, stdin))
    ++Lines, Bytes += strlen(Line);
  printf("then %d more lines, %zu bytes, eof %d\n", Lines, Bytes, feof(stdin));
  printf("read after eof: %zd\n", read(0, Line, sizeof Line));
  return 0;
}
