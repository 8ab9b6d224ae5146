// C++ on COFF without a C++ runtime: virtual calls through vtables (COMDAT,
// selectany), inline functions and a function-local static (COMDAT
// NODUPLICATES / ANY with associative .pdata/.xdata), a template, string
// literals and double constants (selectany ??_C@ / __real@ COMDATs) and a
// switch jump table (.rdata of PCRel32 entries). Entry: run.
struct Shape {
  virtual double area() const = 0;
  virtual int sides() const { return 0; }
  virtual ~Shape() {}
};
struct Square : Shape {
  double s;
  explicit Square(double s) : s(s) {}
  double area() const override { return s * s; }
  int sides() const override { return 4; }
};
struct Triangle : Shape {
  double b, h;
  Triangle(double b, double h) : b(b), h(h) {}
  double area() const override { return b * h / 2; }
  int sides() const override { return 3; }
};

template <class T> T total(const T *P, int N) {
  T R = 0;
  for (int I = 0; I < N; ++I)
    R += P[I];
  return R;
}

inline int counter() {
  static int C = 0;
  return ++C;
}

const char *name(int K) {
  switch (K) {
  case 0: return "zero";
  case 1: return "one";
  case 2: return "two";
  case 3: return "three";
  case 4: return "four";
  case 5: return "five";
  default: return "many";
  }
}

static int length(const char *S) {
  int N = 0;
  while (S[N])
    ++N;
  return N;
}

extern "C" int run() {
  Square Sq(3.5);
  Triangle Tr(4.0, 2.5);
  const Shape *Shapes[] = {&Sq, &Tr};
  double Areas[3] = {0.25, 0, 0};
  int Sides = 0;
  for (int I = 0; I < 2; ++I) {
    Areas[I + 1] = Shapes[I]->area();
    Sides += Shapes[I]->sides();
    counter();
  }
  int Letters = 0;
  for (int K = 0; K < 8; ++K)
    Letters += length(name(K));
  return int(total(Areas, 3) * 4) + Sides * 10 + counter() + Letters; // under 256: an exit status
}
