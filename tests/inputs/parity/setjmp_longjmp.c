// setjmp/longjmp (from deep recursion, a zero value), _setjmp, and
// sigsetjmp/siglongjmp out of signal handlers with and without the saved
// mask, one of them a SIGSEGV.
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static jmp_buf jb;
static sigjmp_buf sjb;
static int depth;
static void deep(int n) {
  volatile char pad[256];
  memset((char *)pad, n, sizeof pad);
  if (n == 0)
    longjmp(jb, 42);
  deep(n - 1);
  depth += pad[3];
}
static void handler(int sig) { siglongjmp(sjb, sig); }
int main(void) {
  volatile int count = 0;
  volatile double d = 1.25;
  int r = setjmp(jb);
  printf("setjmp returned %d count=%d d=%g\n", r, count, d);
  if (count++ < 3) {
    d *= 2;
    longjmp(jb, count);
  }
  r = setjmp(jb);
  if (r == 0)
    deep(50);
  printf("deep longjmp %d\n", r);
  r = setjmp(jb);
  if (r == 0)
    longjmp(jb, 0);
  printf("longjmp(0) gives %d\n", r);
  signal(SIGUSR1, handler);
  sigset_t m;
  for (int save = 0; save <= 1; ++save) {
    r = sigsetjmp(sjb, save);
    if (r == 0) {
      raise(SIGUSR1);
      printf("not reached\n");
    }
    sigprocmask(SIG_BLOCK, NULL, &m);
    printf("savemask=%d got signal %d, SIGUSR1 blocked after=%d\n", save, r, sigismember(&m, SIGUSR1));
    sigprocmask(SIG_UNBLOCK, &m, NULL);
  }
  r = _setjmp(jb);
  if (!r)
    _longjmp(jb, 7);
  printf("_longjmp %d\n", r);
  signal(SIGSEGV, handler);
  r = sigsetjmp(sjb, 1);
  if (!r) {
    volatile int *p = (int *)16;
    *p = 1;
  }
  printf("segv caught %d\n", r);
  return 0;
}
