// The second object of the aarch64_be run test: its function is called and
// its data read from freestanding.c, through a stub and GOT entries.
long long table[2] = {0x1122334455667788LL, 0};

int thrice(int x) { return 3 * x; }
