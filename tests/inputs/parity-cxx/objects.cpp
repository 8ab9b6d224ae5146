// Objects: virtual inheritance (a diamond), dynamic_cast to void* and its
// failures (bad_cast), typeid names and demangling, a function-local static
// whose constructor throws (retried on the next call), shared_ptr with a
// custom deleter, weak_ptr, enable_shared_from_this, bind, function,
// invoke, tuples; last, a static whose initializer recurses into itself.
#include <cstdio>
#include <cstdlib>
#include <cxxabi.h>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <typeinfo>
#include <utility>
#include <vector>
struct A {
  virtual ~A() { std::puts("~A"); }
  int a = 1;
  virtual int f() { return a; }
};
struct B : virtual A {
  int b = 2;
  int f() override { return b; }
};
struct C : virtual A {
  int c = 3;
};
struct D : B, C {
  int d = 4;
  ~D() { std::puts("~D"); }
};
struct E {
  virtual void g() {}
};
struct Unrelated {
  virtual ~Unrelated() {}
};
int attempts = 0;
struct Flaky {
  Flaky() {
    if (++attempts < 3)
      throw std::runtime_error("flaky init " + std::to_string(attempts));
    std::puts("Flaky constructed");
  }
};
Flaky &getFlaky() {
  static Flaky f;
  return f;
}
int recurse(int n);
int &rec() {
  static int x = recurse(1);
  return x;
}
int recurse(int n) { return n ? rec() : 0; }
int main() {
  D d;
  A *pa = &d;
  std::cout << pa->f() << ' ' << dynamic_cast<C *>(pa)->c << ' ' << (dynamic_cast<E *>(pa) == nullptr) << ' '
            << typeid(*pa).name() << '\n';
  void *mostDerived = dynamic_cast<void *>(static_cast<C *>(&d));
  std::cout << (mostDerived == &d) << '\n';
  try {
    Unrelated &u = dynamic_cast<Unrelated &>(*pa);
    (void)u;
  } catch (const std::bad_cast &e) {
    std::cout << "bad_cast " << e.what() << '\n';
  }
  int status;
  char *dem = abi::__cxa_demangle(typeid(std::map<std::string, std::vector<int>>).name(), nullptr, nullptr, &status);
  std::cout << status << ' ' << dem << '\n';
  std::free(dem);
  dem = abi::__cxa_demangle("_ZN3foo3barEv", nullptr, nullptr, &status);
  std::cout << dem << '\n';
  std::free(dem);
  std::cout << typeid(int *).name() << ' ' << typeid(const char[5]).name() << ' ' << typeid(void (*)(int)).name() << ' '
            << typeid(&D::d).name() << ' ' << typeid(long double).name() << ' ' << typeid(char16_t).name() << ' '
            << typeid(std::nullptr_t).name() << '\n';
  std::cout << typeid(d).before(typeid(A)) << ' ' << (typeid(d).hash_code() == typeid(D).hash_code()) << '\n';
  for (int i = 0; i < 3; ++i)
    try {
      getFlaky();
      std::puts("got flaky");
    } catch (const std::exception &e) {
      std::cout << e.what() << '\n';
    }
  {
    auto del = [](int *p) {
      std::printf("custom delete %d\n", *p);
      delete p;
    };
    std::shared_ptr<int> sp(new int(5), del);
    std::weak_ptr<int> wp = sp;
    std::cout << sp.use_count() << ' ' << wp.expired() << '\n';
    auto sp2 = sp;
    std::cout << sp.use_count() << '\n';
    sp.reset();
    sp2.reset();
    std::cout << wp.expired() << ' ' << (wp.lock() == nullptr) << '\n';
    std::unique_ptr<std::FILE, int (*)(std::FILE *)> fp(nullptr, std::fclose);
    struct Node : std::enable_shared_from_this<Node> {
      std::shared_ptr<Node> self() { return shared_from_this(); }
    };
    auto n = std::make_shared<Node>();
    auto n2 = n->self();
    std::cout << n.use_count() << '\n';
    Node raw;
    try {
      raw.self();
    } catch (const std::bad_weak_ptr &e) {
      std::cout << e.what() << '\n';
    }
    std::shared_ptr<A> base = std::make_shared<D>();
    std::cout << std::dynamic_pointer_cast<B>(base)->b << '\n';
  }
  auto add = [](int a, int b, int c) { return a * 100 + b * 10 + c; };
  using namespace std::placeholders;
  auto b1 = std::bind(add, _2, 5, _1);
  std::cout << b1(1, 2) << '\n';
  std::function<int(int)> fn = [k = 3](int x) mutable { return x * k++; };
  std::cout << fn(2) << fn(2) << '\n';
  std::function<int(int, int, int)> ff = add;
  std::cout << ff(1, 2, 3) << ' ' << (ff.target_type() == typeid(add)) << '\n';
  struct M {
    int v;
    int get(int x) const { return v + x; }
  } m{40};
  std::cout << std::invoke(&M::get, m, 2) << ' ' << std::mem_fn(&M::v)(m) << '\n';
  auto [x, y, z] = std::make_tuple(1, std::string("two"), 3.0);
  std::cout << x << y << z << ' ' << std::get<1>(std::tie(x, y)) << '\n';
  std::cout << std::apply(add, std::make_tuple(7, 8, 9)) << '\n';
  // A static whose initializer needs itself: __cxa_guard_acquire's
  // recursive_init_error, and terminate.
  std::cout << std::flush;
  return rec();
}
