// reducer tests: main needs answer(); the other objects are noise.
#include <stdio.h>
extern int answer(void);
int main(void) {
  printf("%d\n", answer());
  return answer();
}
