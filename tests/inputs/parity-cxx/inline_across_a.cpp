#include "inline_across.h"
#include <iostream>
Poly::~Poly() {}
int main() {
  counter();
  counter();
  std::cout << "counter after 2 here + " << other() << " there" << '\n';
  std::cout << "same static: " << (&counter() == otherCounterAddr()) << '\n';
  Box<int> b(3);
  Box<int> *o = makeBoxOther();
  std::cout << "Box<int>::Made " << Box<int>::Made << ' ' << o->show() << '\n';
  std::cout << "typeid equal: " << (typeid(b) == otherBoxType()) << ' ' << (typeid(InlinePoly) == otherInlinePolyType())
            << ' ' << typeid(*o).name() << '\n';
  inlineStr() += "+a";
  std::cout << inlineStr() << ' ' << perType<double>() << ' ' << ++tlsInline << ' ' << ++inlineVar << '\n';
  Base *d = makeDerivedOther();
  std::cout << "dynamic_cast across: " << (dynamic_cast<Derived *>(d) != nullptr) << '\n';
  try {
    throw Box<int>(9);
  } catch (const Box<int> &x) {
    std::cout << "caught Box " << x.V << '\n';
  }
  delete o;
  delete d;
  return 0;
}
