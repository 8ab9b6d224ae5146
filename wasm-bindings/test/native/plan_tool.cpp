// The native planner, for the Jest suite to compare the wasm build against:
// reads lines "TRIPLE<TAB>SIGNATURE<TAB>INPUT<TAB>EXPECT" on stdin and
// prints, per line, "ok<TAB>PLAN TEXT<TAB>DESCRIBE" or "error<TAB>MESSAGE".
#include "callconv/plan.h"

#include <iostream>
#include <sstream>

using namespace linklab::callconv;

int main() {
  std::string Line;
  while (std::getline(std::cin, Line)) {
    std::string F[4];
    std::istringstream In(Line);
    for (auto &X : F)
      std::getline(In, X, '\t');
    auto P = planFor(F[0], F[1], F[2], F[3]);
    if (P)
      std::cout << "ok\t" << P->text() << '\t' << P->describe() << '\n';
    else
      std::cout << "error\t" << P.takeError().message() << '\n';
  }
}
