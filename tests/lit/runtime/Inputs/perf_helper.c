int helper(int x) { return x + 1; }
int main(void) { return helper(6); }
