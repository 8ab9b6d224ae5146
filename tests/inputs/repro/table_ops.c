// The other half of table_main.c: the operations, their table and the
// global call counter.
int calls;

static long add(long A, long B) { return ++calls, A + B; }
static long mul(long A, long B) { return ++calls, A * B; }
long sub(long A, long B) { return ++calls, A - B; }

long (*ops[])(long, long) = {add, mul, sub, 0};
const char *op_names[] = {"add", "mul", "sub"};
