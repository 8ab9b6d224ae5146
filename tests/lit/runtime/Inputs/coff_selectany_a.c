__declspec(selectany) int shared = 7;
__attribute__((weak)) int pick(void) { return 1; }
int first(void) { return shared + pick(); }
