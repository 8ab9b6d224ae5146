// The native planner, for the Jest suite to compare the wasm build against:
// reads lines "TRIPLE<TAB>SIGNATURE<TAB>INPUT<TAB>EXPECT" on stdin and
// prints, per line, "ok<TAB>PLAN TEXT<TAB>DESCRIBE" or "error<TAB>MESSAGE".
#include "callconv/plan.h"

#include <iostream>
#include <sstream>

using namespace linklab::callconv;

static linklab::Expected<Plan> planLine(const std::string &Triple, const std::string &Sig, const std::string &Input,
                                        const std::string &ExpectSpec) {
  auto T = targetForTriple(Triple);
  if (!T)
    return T.takeError();
  auto S = parseSignature(Sig);
  if (!S)
    return S.takeError();
  std::optional<ConventionId> Expect;
  if (ExpectSpec == "standard") {
    Expect = ConventionId{ConventionId::Standard, (*T)->Abi};
  } else if (!ExpectSpec.empty()) {
    auto Sp = parseSpec(ExpectSpec);
    if (!Sp)
      return Sp.takeError();
    Expect = conventionOf(*Sp);
  }
  return Input.empty() ? standardPlan(**T, *S) : materialize(Input, *S, **T, Expect);
}

int main() {
  std::string Line;
  while (std::getline(std::cin, Line)) {
    std::string F[4];
    std::istringstream In(Line);
    for (auto &X : F)
      std::getline(In, X, '\t');
    auto P = planLine(F[0], F[1], F[2], F[3]);
    if (P)
      std::cout << "ok\t" << P->text() << '\t' << P->describe() << '\n';
    else
      std::cout << "error\t" << P.takeError().message() << '\n';
  }
}
