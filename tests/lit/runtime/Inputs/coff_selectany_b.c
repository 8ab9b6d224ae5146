__declspec(selectany) int shared = 7;
int pick(void) { return 40; }
int second(void) { return shared; }
int first(void);
int run(void) { return first() + second(); }
