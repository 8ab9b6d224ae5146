// Freestanding (no C runtime): loops until a limit or a kill ends it. The
// server tests' stand-in for a program that never finishes.
int main(void) {
  for (volatile unsigned long i = 0;; ++i) {
  }
}
