// A freestanding start routine that does what glibc's static start code
// (csu/libc-start.c, apply_irel) does with the IRELATIVE table the linker
// lays out: call each record's resolver and store the result in its slot.
// Run with -runtime=none -entry=start: the exit status says whether the
// IFUNC reached the implementation its resolver chose, and whether its
// address is one value (the stub) everywhere.
typedef struct {
  unsigned long offset, info;
  long addend;
} Rela;
extern const Rela __rela_iplt_start[] __attribute__((weak, visibility("hidden")));
extern const Rela __rela_iplt_end[] __attribute__((weak, visibility("hidden")));

typedef int Fn(void);
static int chosen(void) { return 40; }
static int other(void) { return 1; }
static int resolver_calls;
static Fn *resolve(void) {
  ++resolver_calls;
  return resolver_calls == 1 ? chosen : other;
}
int value(void) __attribute__((ifunc("resolve")));
Fn *value_ptr = value;

int start(void) {
  int records = 0;
  for (const Rela *R = __rela_iplt_start; R < __rela_iplt_end; ++R, ++records)
    *(unsigned long *)R->offset = ((unsigned long (*)(void))R->addend)();
  // 40 + 1 (one record) + 1 (pointers equal).
  return value() + records + (value_ptr == value);
}
