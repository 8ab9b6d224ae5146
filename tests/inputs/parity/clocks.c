// Sleeping and clocks: nanosleep, usleep and clock_nanosleep (relative and
// TIMER_ABSTIME) sleep at least as long as asked; time() agrees with
// CLOCK_REALTIME and CLOCK_REALTIME_COARSE; the CPU-time clocks (clock(),
// getrusage, times) count from the process's start, so they are small.
#include <stdio.h>
#include <sys/resource.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

static double seconds(clockid_t Id) {
  struct timespec T;
  clock_gettime(Id, &T);
  return T.tv_sec + T.tv_nsec / 1e9;
}

int main(void) {
  double Start = seconds(CLOCK_MONOTONIC);
  struct timespec Req = {0, 20 * 1000 * 1000};
  printf("nanosleep: %d\n", nanosleep(&Req, NULL));
  double AfterNano = seconds(CLOCK_MONOTONIC);
  printf("usleep: %d\n", usleep(20000));
  double AfterU = seconds(CLOCK_MONOTONIC);
  struct timespec Abs;
  clock_gettime(CLOCK_MONOTONIC, &Abs);
  Abs.tv_nsec += 20 * 1000 * 1000;
  if (Abs.tv_nsec >= 1000000000)
    Abs.tv_sec++, Abs.tv_nsec -= 1000000000;
  printf("clock_nanosleep abstime: %d\n", clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &Abs, NULL));
  double AfterAbs = seconds(CLOCK_MONOTONIC);
  Req.tv_nsec = 2000000000;
  printf("bad nanosleep: %d\n", nanosleep(&Req, NULL));
  printf("slept 20 ms each: %d %d %d\n", AfterNano - Start >= 0.02, AfterU - AfterNano >= 0.02,
         AfterAbs - AfterU >= 0.015 && AfterAbs - AfterU < 1);

  time_t Now = time(NULL);
  double Real = seconds(CLOCK_REALTIME), Coarse = seconds(CLOCK_REALTIME_COARSE);
  printf("time() agrees with CLOCK_REALTIME: %d\n", Real - Now > -1 && Real - Now < 2);
  printf("CLOCK_REALTIME_COARSE too: %d\n", Coarse - Real > -1 && Coarse - Real < 1);
  printf("after 2020: %d\n", Now > 1577836800);

  volatile unsigned long Sum = 0;
  for (unsigned long I = 0; I < 100000; ++I)
    Sum += I;
  clock_t C = clock();
  printf("clock() small: %d\n", C >= 0 && C < 5 * CLOCKS_PER_SEC);
  double Cpu = seconds(CLOCK_PROCESS_CPUTIME_ID);
  printf("process CPU clock small: %d\n", Cpu >= 0 && Cpu < 5);
  struct rusage U;
  printf("getrusage: %d", getrusage(RUSAGE_SELF, &U));
  printf(" user time small: %d\n", U.ru_utime.tv_sec < 5);
  printf("getrusage children: %d %ld\n", getrusage(RUSAGE_CHILDREN, &U), (long)U.ru_utime.tv_sec);
  struct tms T;
  printf("times: %d", times(&T) != (clock_t)-1);
  printf(" user ticks small: %d\n", T.tms_utime < 500);
  return 0;
}
