// getopt and getopt_long: clustered, missing and unknown options (with
// their messages on stderr), optional arguments, abbreviations, "--", and
// the program's own argv.
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static void run(int argc, char **argv, int longs) {
  static struct option lo[] = {{"verbose", no_argument, 0, 'v'},
                               {"file", required_argument, 0, 'f'},
                               {"level", optional_argument, 0, 'l'},
                               {"flag", no_argument, 0, 0},
                               {0, 0, 0, 0}};
  optind = 0;
  opterr = 1;
  int c, idx;
  while ((c = longs ? getopt_long(argc, argv, "vf:l::x", lo, &idx) : getopt(argc, argv, ":vf:x")) != -1) {
    if (c == 0)
      printf(" long[%d]=%s", idx, lo[idx].name);
    else
      printf(" %c(%s,optopt=%c)", c, optarg ? optarg : "-", optopt ? optopt : '0');
  }
  printf(" | optind=%d rest:", optind);
  for (int i = optind; i < argc; ++i)
    printf(" %s", argv[i]);
  printf("\n");
  fflush(stdout);
}
int main(int argc, char **argv) {
  char *a1[] = {"prog", "-v", "-fout", "pos1", "-x", "--", "-v", NULL};
  run(7, a1, 0);
  char *a2[] = {"prog", "-q", "-f", NULL};
  run(3, a2, 0);
  char *a3[] = {"prog", "--verbose", "--file=x.txt", "--level",     "--level=3", "pos", "--flag",
                "--fi", "y",         "--bogus",      "--verbose=1", "-z",        NULL};
  run(12, a3, 1);
  char *a4[] = {"prog", "--ver", "--file", NULL};
  run(3, a4, 1);
  char *a5[] = {"prog", "--f", "z", NULL};
  run(3, a5, 1);
  run(argc, argv, 1);
  return 0;
}
