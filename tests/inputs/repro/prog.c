// export tests: a program whose link has data, string, call and libc edges.
#include <stdio.h>
extern int helper(int);
static const char *msg = "value";
int counter = 3;
int main(int argc, char **argv) {
  printf("%s %d\n", msg, helper(counter + argc));
  return 7;
}
