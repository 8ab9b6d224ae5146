#include <iostream>
#include <stdexcept>

int main() {
  try {
    throw std::runtime_error("caught");
  } catch (const std::exception &E) {
    std::cout << E.what() << '\n';
  }
}
