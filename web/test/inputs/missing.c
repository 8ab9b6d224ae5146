// What unresolved.c calls, for tests that put it in an archive: the program
// exits with 42 only if the link pulled this member in.
int missing_function(int x) { return x + 41; }
