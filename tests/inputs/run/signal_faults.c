// Signal misuse, one per argv[1], each ending the run with a clear report:
// r  rt_sigreturn with no signal frame (called outside a handler)
// h  a handler address that is not code
// n  an SA_NODEFER handler raising its own signal forever (nesting)
// s  a handler raising its own signal forever, deferred each time (a storm)
// c  a handler overwriting its frame's saved context with garbage
// p  pause() with nothing that could send a signal
// z  sleep(100) past the run's time limit
// m  sa_mask blocks SIGUSR2 while the SIGUSR1 handler runs (Linux's
//    answer; qemu-riscv64 disagrees, so this is not a parity program)
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

static void again(int Sig) { raise(Sig); }
static void garbage(int Sig, siginfo_t *I, void *Uc) { memset(Uc, 0x41, sizeof(ucontext_t)); }
static int Usr2Masked = -1;
static void checkMask(int Sig) {
  sigset_t Now;
  sigprocmask(SIG_BLOCK, NULL, &Now);
  Usr2Masked = sigismember(&Now, SIGUSR2);
}

int main(int Argc, char **Argv) {
  char Mode = Argc > 1 ? Argv[1][0] : '?';
  struct sigaction Sa;
  memset(&Sa, 0, sizeof Sa);
  switch (Mode) {
  case 'r':
    return (int)syscall(SYS_rt_sigreturn);
  case 'h':
    Sa.sa_handler = (void (*)(int))0x7770000;
    break;
  case 'n':
    Sa.sa_handler = again;
    Sa.sa_flags = SA_NODEFER;
    break;
  case 's':
    Sa.sa_handler = again;
    break;
  case 'c':
    Sa.sa_sigaction = garbage;
    Sa.sa_flags = SA_SIGINFO;
    break;
  case 'p':
    return pause();
  case 'z':
    return sleep(100);
  case 'm':
    Sa.sa_handler = checkMask;
    sigaddset(&Sa.sa_mask, SIGUSR2);
    break;
  }
  sigaction(SIGUSR1, &Sa, NULL);
  raise(SIGUSR1);
  printf("SIGUSR2 masked in the handler: %d\n", Usr2Masked);
  return 0;
}
