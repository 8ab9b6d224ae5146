// A C program as a user compiles it, without a libc's headers (the test
// must not depend on which runtime is the default).
int printf(const char *, ...);

int main(void) {
  printf("hello\n");
  return 0;
}
