// Thread-local data in the program that runs first (its TLS image is then installed).
__thread int First = 3;
int main(void) { return First; }
