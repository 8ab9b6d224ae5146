int twice(int x) { return 2 * x; }
int helper(int x) { return twice(x) + 1; }
int data = 4;
int main(void) { return helper(data); }
