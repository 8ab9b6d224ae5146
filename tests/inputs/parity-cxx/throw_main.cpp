// Exceptions thrown in throw_lib.cpp caught here: by exact type, by base,
// catch (...), rethrow, nested exceptions, and destructors run on the way.
#include "throw_lib.h"

#include <exception>
#include <iostream>
#include <typeinfo>

static void report(const std::exception &E) {
  std::cout << "caught " << typeid(E).name() << ": " << E.what() << '\n';
  try {
    std::rethrow_if_nested(E);
  } catch (const std::exception &Inner) {
    std::cout << "  nested: " << Inner.what() << '\n';
  }
}

int main() {
  for (const char *S : {"7", "-3", "x", "99999999999"}) {
    try {
      int V = parsePositive(S);
      std::cout << "parsed " << V << '\n';
    } catch (const BadValue &E) {
      std::cout << "BadValue " << E.Value << ": " << E.what() << '\n';
    } catch (const std::invalid_argument &E) {
      std::cout << "invalid_argument: " << E.what() << '\n';
    } catch (const std::exception &E) {
      report(E);
    }
  }
  try {
    depth(3);
  } catch (const std::runtime_error &E) {
    std::cout << "runtime_error: " << E.what() << '\n';
  }
  try {
    checkedAt({1, 2, 3}, 5);
  } catch (const std::out_of_range &E) {
    std::cout << "out_of_range\n";
  }
  try {
    rethrowAsLogic();
  } catch (const std::logic_error &E) {
    report(E);
  }
  try {
    try {
      throw 42;
    } catch (int I) {
      std::cout << "int " << I << ", rethrowing\n";
      throw;
    }
  } catch (...) {
    std::exception_ptr P = std::current_exception();
    try {
      std::rethrow_exception(P);
    } catch (int I) {
      std::cout << "again " << I << '\n';
    }
  }
  std::cout << "uncaught now: " << std::uncaught_exceptions() << '\n';
  return 0;
}
