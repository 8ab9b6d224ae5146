// operator new/delete (and the array forms) replaced in the program's own
// object: they override libstdc++'s for the library's allocations too
// (vector, string, shared_ptr, iostream); placement and nothrow new; sizes
// beyond PTRDIFF_MAX: bad_alloc, a null nothrow result, length_error.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <new>
#include <string>
#include <vector>
static unsigned long News, Deletes, ArrNews, ArrDeletes;
void *operator new(std::size_t n) {
  ++News;
  if (void *p = std::malloc(n ? n : 1))
    return p;
  throw std::bad_alloc();
}
void operator delete(void *p) noexcept {
  if (p)
    ++Deletes;
  std::free(p);
}
void operator delete(void *p, std::size_t) noexcept {
  if (p)
    ++Deletes;
  std::free(p);
}
void *operator new[](std::size_t n) {
  ++ArrNews;
  return operator new(n);
}
void operator delete[](void *p) noexcept {
  ++ArrDeletes;
  operator delete(p);
}
void operator delete[](void *p, std::size_t) noexcept {
  ++ArrDeletes;
  operator delete(p);
}
void *volatile Sink;
struct Tracked {
  static int Live;
  int V;
  Tracked(int v = 0) : V(v) { ++Live; }
  ~Tracked() { --Live; }
};
int Tracked::Live;
int main() {
  {
    std::vector<int> v;
    for (int i = 0; i < 100; ++i)
      v.push_back(i);
    std::string s(100, 'x');
    auto sp = std::make_shared<int>(3);
    std::unique_ptr<Tracked[]> arr(new Tracked[5]);
    std::printf("live %d\n", Tracked::Live);
    alignas(Tracked) unsigned char buf[sizeof(Tracked)];
    Tracked *t = new (buf) Tracked(42);
    std::printf("placement %d live %d\n", t->V, Tracked::Live);
    t->~Tracked();
    Tracked *nt = new (std::nothrow) Tracked(1);
    delete nt;
    std::cout << "through iostream " << v.size() << std::endl;
  }
  std::printf("outstanding %lu, library allocations counted %d, arrays %lu/%lu, live %d\n", News - Deletes, News > 5,
              ArrNews, ArrDeletes, Tracked::Live);
  volatile std::size_t Huge = std::size_t(-1) / 2 + 1; // beyond PTRDIFF_MAX: malloc refuses
  try {
    Sink = ::operator new(Huge);
    std::puts("huge succeeded?");
  } catch (const std::bad_alloc &e) {
    std::printf("huge: %s\n", e.what());
  }
  Sink = ::operator new(Huge, std::nothrow);
  std::printf("nothrow huge %p\n", Sink);
  try {
    Sink = new char[Huge];
  } catch (const std::bad_alloc &e) {
    std::printf("new[]: %s\n", e.what());
  }
  try {
    std::vector<char> big(Huge);
    Sink = big.data();
  } catch (const std::exception &e) {
    std::printf("vector: %s\n", e.what());
  }
  try {
    std::string s;
    s.reserve(Huge);
    Sink = &s;
  } catch (const std::exception &e) {
    std::printf("string: %s\n", e.what());
  }
  return 0;
}
