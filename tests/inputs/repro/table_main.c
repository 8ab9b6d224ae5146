// A two-object program with a table of function pointers (address-taken
// functions: an .llvm_addrsig section), a global another object updates, a
// line of stdin and printf. With no stdin it works on "3 4".
#include <stdio.h>

typedef long (*Op)(long, long);
extern Op ops[];
extern const char *op_names[];
extern int calls;

int main(void) {
  char Line[64] = "3 4";
  long A = 0, B = 0;
  if (!fgets(Line, sizeof Line, stdin))
    sprintf(Line, "3 4");
  if (sscanf(Line, "%ld %ld", &A, &B) != 2)
    return 2;
  for (int I = 0; ops[I]; ++I)
    printf("%s(%ld, %ld) = %ld\n", op_names[I], A, B, ops[I](A, B));
  printf("calls: %d\n", calls);
  return calls;
}
