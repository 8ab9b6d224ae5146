// Not a gallery example: prepare-runtimes.mjs links it to make libstdc++.a's pack (the
// members a C++ program writing to std::cout pulls), which the gallery's C programs cannot.
#include <iostream>
int main() { std::cout << "hello, world" << std::endl; }
