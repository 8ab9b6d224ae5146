// Defines answer2 and calls a function nothing defines.
extern int missing_fn(void);
int answer2(void) { return missing_fn() + 1; }
