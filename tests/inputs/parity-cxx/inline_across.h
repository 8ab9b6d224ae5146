// Inline functions, templates and inline variables used by two objects
// (inline_across_a.cpp, inline_across_b.cpp): one copy of each function's
// static, of a template's static member, of an inline (thread_local)
// variable; typeinfo and vtables emitted in both objects compare equal, so
// dynamic_cast and catch work across them.
#pragma once
#include <string>
#include <typeinfo>
inline int &counter() {
  static int N = 0;
  return ++N, N;
}
template <class T> struct Box {
  static int Made;
  T V;
  explicit Box(T V) : V(V) { ++Made; }
  virtual ~Box() = default;
  virtual std::string show() const { return std::to_string(V); }
};
template <class T> int Box<T>::Made = 0;
inline std::string &inlineStr() {
  static std::string S = "init";
  return S;
}
template <class T> T &perType() {
  static T X{};
  return X;
}
struct Poly {
  virtual ~Poly();
  virtual int id() const { return 1; }
};
struct InlinePoly {
  virtual ~InlinePoly() {}
  virtual int id() const { return 2; }
};
inline thread_local int tlsInline = 5;
inline int inlineVar = 10;
int other();
const std::type_info &otherBoxType();
const std::type_info &otherInlinePolyType();
void *otherCounterAddr();
Box<int> *makeBoxOther();
struct Base {
  virtual ~Base() = default;
};
struct Derived : Base {};
Base *makeDerivedOther();
