// The other half of the GOT/PLT example: functions, a function-pointer table
// and data that the main object reaches only through the GOT.
int counter;
int limit = 3;
int add(int a, int b) { return a + b; }
int mul(int a, int b) { return a * b; }
int sub(int a, int b) { return a - b; }
const char *names[] = {"add", "mul", "sub"};
int (*ops[])(int, int) = {add, mul, sub};
