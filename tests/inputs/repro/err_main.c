// reducer tests: main needs answer2(), whose object needs missing_fn.
extern int answer2(void);
int main(void) { return answer2(); }
