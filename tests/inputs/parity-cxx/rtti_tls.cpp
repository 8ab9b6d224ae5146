// RTTI (typeid, dynamic_cast through virtual and multiple inheritance),
// virtual dispatch, and thread_local objects with constructors and
// destructors (__cxa_thread_atexit).
#include <cstdio>
#include <iostream>
#include <memory>
#include <typeinfo>
#include <vector>

struct Shape {
  virtual ~Shape() { std::printf("~Shape\n"); }
  virtual double area() const = 0;
  virtual const char *name() const { return "shape"; }
};
struct Named {
  virtual ~Named() = default;
  virtual std::string label() const { return "named"; }
};
struct Square : Shape, Named {
  double S;
  explicit Square(double S) : S(S) {}
  double area() const override { return S * S; }
  const char *name() const override { return "square"; }
  std::string label() const override { return "sq" + std::to_string(int(S)); }
};
struct Circle : virtual Shape {
  double R;
  explicit Circle(double R) : R(R) {}
  double area() const override { return 3.14159 * R * R; }
};

struct PerThread {
  int Calls = 0;
  PerThread() { std::printf("PerThread constructed\n"); }
  ~PerThread() { std::printf("PerThread destroyed after %d calls\n", Calls); }
};
thread_local PerThread TL;
thread_local int Counter = 100;

int bump() {
  ++TL.Calls;
  return ++Counter;
}

int main() {
  std::vector<std::unique_ptr<Shape>> Shapes;
  Shapes.push_back(std::make_unique<Square>(3));
  Shapes.push_back(std::make_unique<Circle>(2));
  for (auto &S : Shapes) {
    const Shape &Dynamic = *S;
    std::cout << typeid(Dynamic).name() << ' ' << S->name() << ' ' << S->area() << '\n';
    if (auto *N = dynamic_cast<Named *>(S.get()))
      std::cout << "  also Named: " << N->label() << '\n';
    if (auto *C = dynamic_cast<Circle *>(S.get()))
      std::cout << "  Circle r=" << C->R << '\n';
  }
  Named *N = dynamic_cast<Named *>(Shapes[0].get());
  std::cout << "cross-cast back: " << (dynamic_cast<Shape *>(N) == Shapes[0].get()) << '\n';
  try {
    Shape &S = *Shapes[1];
    (void)dynamic_cast<Square &>(S);
  } catch (const std::bad_cast &E) {
    std::cout << "bad_cast: " << E.what() << '\n';
  }
  std::cout << (typeid(int) == typeid(const int)) << ' ' << typeid(std::vector<int>).name() << '\n';
  bump();
  bump();
  std::cout << "counter " << bump() << '\n';
  return 0;
}
