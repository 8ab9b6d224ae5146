int answer(void) { return 42; }
int other_answer(void) { return 41; }
