// Deep recursion, a large VLA and alloca, the stack limit, and a 200 MiB
// .bss next to initialised data.
#include <alloca.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
static int rec(int n) {
  volatile char pad[64];
  pad[0] = (char)n;
  if (n == 0)
    return 0;
  return rec(n - 1) + pad[0] % 3;
}
static long vla(int n) {
  char a[n];
  memset(a, 1, n);
  long s = 0;
  for (int i = 0; i < n; i += 4096)
    s += a[i];
  return s;
}
static long al(int n) {
  char *p = alloca(n);
  memset(p, 2, n);
  return p[n - 1] + p[0];
}
static char bigbss[200 << 20];
static int bigdata[1 << 16] = {1, 2, 3};
int main(void) {
  printf("rec=%d\n", rec(60000));
  printf("vla=%ld\n", vla(4 << 20));
  printf("alloca=%ld\n", al(2 << 20));
  struct rlimit rl;
  getrlimit(RLIMIT_STACK, &rl);
  printf("stack cur=%ld\n", (long)rl.rlim_cur);
  bigbss[0] = 1;
  bigbss[sizeof bigbss - 1] = 2;
  long s = 0;
  for (size_t i = 0; i < sizeof bigbss; i += 1 << 20)
    s += bigbss[i];
  printf("bss=%ld %d data=%d\n", s, bigbss[sizeof bigbss - 1], bigdata[2] + bigdata[65535]);
  return 0;
}
