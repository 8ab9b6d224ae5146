// The other object of ifunc.c: references the IFUNC `add` from outside.
int add(int, int);

int (*add_there)(int, int) = add;

int (*address_of_add(void))(int, int) { return add; }

int call_add(int a, int b) { return add(a, b); }
