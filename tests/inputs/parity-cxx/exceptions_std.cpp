// Exceptions beyond throw_main.cpp: a constructor throwing after a member
// was built, catch (...) of a non-std type, one thrown through a C callback
// (qsort), nested three deep, exception_ptr, the standard library's own
// exception types (bad_variant_access, bad_optional_access, bad_any_cast,
// bad_function_call, bad_weak_ptr, bad_typeid...), pointers and derived
// classes caught by base, deep unwinding through std::function.
#include <any>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <typeinfo>
#include <variant>
struct Foreign {
  int x;
};
struct ThrowsInCtor {
  ThrowsInCtor(int n) {
    if (n > 1)
      throw std::runtime_error("ctor " + std::to_string(n));
  }
};
struct Member {
  ~Member() { std::puts("~Member"); }
};
struct Partial {
  Member m;
  ThrowsInCtor t;
  Partial() : t(5) {}
};
extern "C" int cmp(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  if (x == 13 || y == 13)
    throw Foreign{13};
  return x - y;
}
void nested() {
  try {
    try {
      throw std::out_of_range("inner");
    } catch (...) {
      std::throw_with_nested(std::runtime_error("middle"));
    }
  } catch (...) {
    std::throw_with_nested(std::logic_error("outer"));
  }
}
void print_nested(const std::exception &e, int level = 0) {
  std::cout << std::string(level, ' ') << typeid(e).name() << ": " << e.what() << '\n';
  try {
    std::rethrow_if_nested(e);
  } catch (const std::exception &n) {
    print_nested(n, level + 1);
  }
}
int main() {
  try {
    Partial p;
  } catch (const std::exception &e) {
    std::cout << "Partial: " << e.what() << '\n';
  }
  try {
    throw Foreign{7};
  } catch (...) {
    std::cout << "catch(...) foreign\n";
  }
  int arr[] = {5, 3, 13, 1};
  try {
    std::qsort(arr, 4, sizeof(int), cmp);
  } catch (const Foreign &f) {
    std::cout << "through qsort: " << f.x << '\n';
  }
  try {
    nested();
  } catch (const std::exception &e) {
    print_nested(e);
  }
  std::exception_ptr p;
  try {
    throw std::invalid_argument("stored");
  } catch (...) {
    p = std::current_exception();
  }
  try {
    std::rethrow_exception(p);
  } catch (const std::logic_error &e) {
    std::cout << "rethrown " << e.what() << '\n';
  }
  auto ep = std::make_exception_ptr(42);
  try {
    std::rethrow_exception(ep);
  } catch (int i) {
    std::cout << "made " << i << '\n';
  }
  std::variant<int, std::string> v = 3;
  try {
    std::get<std::string>(v);
  } catch (const std::bad_variant_access &e) {
    std::cout << "bva: " << e.what() << '\n';
  }
  std::optional<int> o;
  try {
    o.value();
  } catch (const std::bad_optional_access &e) {
    std::cout << "boa: " << e.what() << '\n';
  }
  std::any a = 1.5;
  try {
    std::any_cast<int>(a);
  } catch (const std::bad_any_cast &e) {
    std::cout << "bac: " << e.what() << '\n';
  }
  std::cout << a.type().name() << ' ' << std::any_cast<double>(a) << ' '
            << std::visit([](auto &x) { return sizeof(x); }, v) << '\n';
  std::function<int()> f;
  try {
    f();
  } catch (const std::bad_function_call &e) {
    std::cout << "bfc: " << e.what() << '\n';
  }
  std::weak_ptr<int> w;
  try {
    std::shared_ptr<int> s(w);
  } catch (const std::bad_weak_ptr &e) {
    std::cout << "bwp: " << e.what() << '\n';
  }
  try {
    throw std::bad_alloc();
  } catch (const std::exception &e) {
    std::cout << e.what() << '\n';
  }
  try {
    throw std::bad_array_new_length();
  } catch (const std::bad_alloc &e) {
    std::cout << e.what() << '\n';
  }
  try {
    throw std::bad_typeid();
  } catch (const std::exception &e) {
    std::cout << e.what() << '\n';
  }
  struct P {
    virtual ~P() {}
  };
  P *np = nullptr;
  try {
    (void)typeid(*np);
  } catch (const std::bad_typeid &e) {
    std::cout << "typeid null: " << e.what() << '\n';
  }
  try {
    throw std::bad_exception();
  } catch (const std::exception &e) {
    std::cout << e.what() << '\n';
  }
  try {
    throw std::exception();
  } catch (const std::exception &e) {
    std::cout << e.what() << '\n';
  }
  try {
    throw std::ios_base::failure("iofail");
  } catch (const std::exception &e) {
    std::cout << e.what() << '\n';
  }
  try {
    throw std::range_error("r");
  } catch (const std::runtime_error &e) {
    std::cout << e.what() << '\n';
  }
  try {
    throw std::overflow_error("ov");
  } catch (const std::runtime_error &e) {
    std::cout << e.what() << '\n';
  }
  try {
    throw "c string";
  } catch (const char *s) {
    std::cout << s << '\n';
  }
  try {
    throw 2.5;
  } catch (double d) {
    std::cout << d << '\n';
  }
  try {
    throw std::string("str");
  } catch (const std::string &s) {
    std::cout << s << '\n';
  }
  try {
    throw nullptr;
  } catch (int *p) {
    std::cout << "nullptr as int* " << (p == nullptr) << '\n';
  }
  struct B {};
  struct D : B {};
  try {
    throw D();
  } catch (B &) {
    std::cout << "D as B\n";
  }
  try {
    throw new D;
  } catch (B *b) {
    std::cout << "D* as B*\n";
    delete b;
  }
  int depth = 0;
  std::function<void(int)> rec = [&](int n) {
    if (n == 0)
      throw n;
    depth++;
    rec(n - 1);
  };
  try {
    rec(200);
  } catch (int) {
    std::cout << "deep " << depth << '\n';
  }
  std::cout << std::uncaught_exceptions() << '\n';
  return 0;
}
