// An IFUNC (GNU indirect function): its resolver runs once before main and
// picks the implementation; every reference to `add` -- calls and addresses
// taken here and in ifunc_use.c, through the GOT or in data -- must reach
// the same function, and pointers to it must compare equal.
#include <stdio.h>

typedef int AddFn(int, int);

static int add_generic(int a, int b) { return a + b; }
static int add_tuned(int a, int b) { return a + b + 100; }

int resolver_runs;
volatile int prefer_tuned = 1;

// What a C library's resolver does with CPU features: decide at start-up.
static AddFn *resolve_add(void) {
  resolver_runs++;
  return prefer_tuned ? add_tuned : add_generic;
}

int add(int, int) __attribute__((ifunc("resolve_add")));

AddFn *add_here = add;
extern AddFn *add_there;
AddFn *address_of_add(void);
int call_add(int a, int b);

int main(void) {
  printf("add(2, 3) = %d\n", add(2, 3));
  printf("from another object: %d\n", call_add(4, 5));
  printf("through pointers: %d %d\n", add_here(1, 1), add_there(2, 2));
  printf("one address: %d %d %d\n", add_here == add, add_there == add, address_of_add() == add_here);
  printf("resolver ran before main: %d\n", resolver_runs > 0);
  return 0;
}
