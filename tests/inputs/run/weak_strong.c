// The strong definition that overrides weak.c's weak pick().
int pick(void) { return 2; }
