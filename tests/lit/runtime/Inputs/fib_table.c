static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int table[4] = {3, 1, 4, 1};
int main(void) { return fib(10) + table[2] + (int)sizeof(long); }
