// Asks linklab-executor-probe (tests/executor/sandbox_probe.cpp) to open
// /etc/passwd from its host process, as code that took over the executor
// would: the executor's seccomp filter must kill it (SIGSYS). System call
// 0x5ec0 is emulator/sandbox.h's ProbeSyscall; linklab-executor has none.
#include <stdio.h>
#include <unistd.h>

int main(void) {
  printf("escaping\n");
  fflush(stdout);
  long r = syscall(0x5ec0, 1);
  printf("still here: %ld\n", r);
  return 0;
}
