// Files glibc opens of its own accord, not the program: localtime() and
// mktime() read the time zone, sysconf() the list of CPUs and the group
// limit. The program asked for no file, so its stderr stays as a native
// run's (empty), and each call still answers (the zone a system without
// one has: UTC here as in the reference builds' hosts).
#include <stdio.h>
#include <time.h>
#include <unistd.h>

int main(void) {
  time_t T = 951782400; // 2000-02-29 00:00:00 UTC
  struct tm *L = localtime(&T);
  printf("localtime: %s\n", L ? "ok" : "null");
  printf("mktime round trip: %d\n", L && mktime(L) == T);
  tzset();
  printf("tzname set: %d\n", tzname[0] != NULL);
  printf("sysconf CPUs > 0: %d\n", sysconf(_SC_NPROCESSORS_ONLN) > 0);
  printf("sysconf NGROUPS_MAX: %ld\n", sysconf(_SC_NGROUPS_MAX));
  return 0;
}
