#include "inline_across.h"
#include <iostream>
int other() {
  counter();
  inlineStr() += "+b";
  perType<double>() = 2.5;
  ++tlsInline;
  ++inlineVar;
  return counter();
}
const std::type_info &otherBoxType() { return typeid(Box<int>); }
const std::type_info &otherInlinePolyType() {
  InlinePoly p;
  return typeid(p);
}
void *otherCounterAddr() { return &counter(); }
Box<int> *makeBoxOther() { return new Box<int>(7); }
Base *makeDerivedOther() { return new Derived; }
