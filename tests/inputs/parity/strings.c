// string.h and ctype over every byte, conversions at their edges.
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  unsigned classes[7] = {0};
  for (int c = 0; c < 256; ++c) {
    classes[0] += !!isalpha(c), classes[1] += !!isdigit(c), classes[2] += !!isspace(c);
    classes[3] += !!ispunct(c), classes[4] += !!isprint(c), classes[5] += !!iscntrl(c);
    classes[6] += toupper(c) != c;
  }
  printf("ctype counts: %u %u %u %u %u %u %u\n", classes[0], classes[1], classes[2], classes[3], classes[4],
         classes[5], classes[6]);
  char buf[128] = "the quick brown fox";
  strcat(buf, " jumps");
  printf("%zu %s|%s|%s\n", strlen(buf), strchr(buf, 'q'), strrchr(buf, 'o'), strstr(buf, "brown"));
  printf("cmp %d %d %d\n", strcmp("abc", "abd") < 0, strncmp("abcX", "abcY", 3), memcmp("a\0b", "a\0c", 3) < 0);
  char *tok, *save, line[] = "a,b,,c";
  for (tok = strtok_r(line, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
    printf("[%s]", tok);
  printf("\n%lld %llu %" PRId64 " %ld\n", LLONG_MIN, ULLONG_MAX, INT64_MIN, strtol("-0x7fffffff", NULL, 0));
  printf("%lu %s\n", strtoul("18446744073709551615", NULL, 10), strdup("copied"));
  printf("%.3s|%10.4f|%-8.2e|%#x|%#o|%c\n", "abcdef", 3.14159, 12345.678, 255, 8, 'Z');
  printf("%g %g %g %g\n", 1e-5, 123456789.0, 0.0001, -0.0);
  printf("%a %La\n", 1.0, 1.0L);
  printf("%.0f %.0f %.0f %.1f\n", 0.5, 1.5, 2.5, 0.05);
  return 0;
}
