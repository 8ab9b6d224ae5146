// gmtime/localtime (UTC), every strftime conversion, asctime/ctime,
// mktime/timegm and their normalization, strptime, difftime.
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
int main(void) {
  time_t ts[] = {0, 951782400, 1700000000, -86400 * 365, 2147483647, 4102444800LL, 253402300799LL};
  char buf[256];
  for (unsigned i = 0; i < sizeof ts / sizeof ts[0]; ++i) {
    struct tm g = *gmtime(&ts[i]), l = *localtime(&ts[i]);
    strftime(buf, sizeof buf,
             "%a %A %b %B %c %C %d %D %e %F %g %G %h %H %I %j %k %l %m %M %n %p %P %r %R %s %S %t %T %u %U %V %w %W %x "
             "%X %y %Y %z %Z %%",
             &g);
    printf("%lld: %s\n", (long long)ts[i], buf);
    printf("  asctime=%s", asctime(&g));
    printf("  ctime=%s", ctime(&ts[i]));
    printf("  local=%d-%d-%d %d:%d:%d wday=%d yday=%d isdst=%d gmtoff=%ld zone=%s\n", l.tm_year, l.tm_mon, l.tm_mday,
           l.tm_hour, l.tm_min, l.tm_sec, l.tm_wday, l.tm_yday, l.tm_isdst, l.tm_gmtoff, l.tm_zone);
    struct tm c = g;
    c.tm_isdst = -1;
    printf("  mktime=%lld timegm=%lld\n", (long long)mktime(&c), (long long)timegm(&g));
  }
  struct tm n = {0};
  n.tm_year = 124;
  n.tm_mon = 13;
  n.tm_mday = 35;
  n.tm_hour = 25;
  n.tm_min = -10;
  n.tm_isdst = -1;
  time_t t = mktime(&n);
  printf("normalized %lld %d-%d-%d %d:%d\n", (long long)t, n.tm_year, n.tm_mon, n.tm_mday, n.tm_hour, n.tm_min);
  struct tm p;
  memset(&p, 0, sizeof p);
  char *e = strptime("2024-02-29 13:45:07 Thursday", "%Y-%m-%d %H:%M:%S %A", &p);
  printf("strptime rest='%s' %d %d %d %d %d %d wday=%d\n", e ? e : "(null)", p.tm_year, p.tm_mon, p.tm_mday, p.tm_hour,
         p.tm_min, p.tm_sec, p.tm_wday);
  printf("difftime=%g\n", difftime(1000, 250));
  printf("tzname=%s/%s timezone=%ld daylight=%d\n", tzname[0], tzname[1], timezone, daylight);
  strftime(buf, sizeof buf, "%Ec %EY %Od %Oe", gmtime(&ts[2]));
  printf("E/O: %s\n", buf);
  printf("strftime small=%zu\n", strftime(buf, 5, "%Y-%m-%d", gmtime(&ts[2])));
  return 0;
}
