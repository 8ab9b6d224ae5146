// Calls within the object and out of it, an external's address read from
// the GOT, globals read directly, a switch (a jump table in .rodata: label
// differences), static data holding addresses: the relocations clang emits
// for ordinary C. One external only: llvm-jitlink lists externals in hash order.
extern int ext_fn(int);

static int table[8] = {1, 2, 3, 5, 8, 13, 21, 34};
int *table_ptr = &table[2];
const char *greeting = "hello";
int counter;

static __attribute__((noinline)) int square(int x) { return x * x; }

int classify(int v) {
  int (*volatile fp)(int) = ext_fn;
  switch (v) {
  case 0: return square(v + 3);
  case 1: return table[v];
  case 2: return ext_fn(v);
  case 3: return fp(v);
  case 4: return greeting[v];
  case 5: return *table_ptr + 7;
  default: return -1;
  }
}

int main(void) {
  int s = 0;
  for (int i = 0; i < 8; ++i)
    s += classify(i);
  counter = s;
  return s & 0x7f;
}
