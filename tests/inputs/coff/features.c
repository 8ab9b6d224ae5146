// COFF features beyond the freestanding program: a selectany COMDAT, a weak
// definition (a weak external with its default), a static function, a
// thread-local variable (SECREL from its .tls$ section), and a non-leaf
// function whose .pdata/.xdata unwind entries must stay with it.
__declspec(selectany) int shared_counter = 3;
__attribute__((weak)) int weak_fn(int x) { return x + 1; }
static int twice(int x) { return x * 2; }
__declspec(thread) int tls_value = 5;
extern int ext_fn(int);

int features(int x) {
  int a[40];
  for (int i = 0; i < 40; ++i)
    a[i] = ext_fn(i + x);
  return a[x & 31] + twice(x) + weak_fn(x) + shared_counter + tls_value;
}
