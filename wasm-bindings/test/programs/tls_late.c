// Thread-local data in an object added after the program has run.
__thread int Late = 7;
int late(void) { return Late; }
