extern "C" int run();
int main() { return run(); }
