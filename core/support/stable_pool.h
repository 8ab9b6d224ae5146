// Objects of one type that keep their address until the pool goes (a
// graph's blocks, symbols and addressables). Chunks double from a few
// elements, so a small graph (one archive member) makes one small allocation
// and a large one a logarithmic number, where std::deque made one per
// 512 bytes: every fifth block, every tenth symbol.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace linklab {

template <typename T> class StablePool {
  static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "chunks are allocated with plain new[]");

public:
  StablePool() = default;
  StablePool(const StablePool &) = delete;
  StablePool &operator=(const StablePool &) = delete;
  ~StablePool() {
    for (Chunk &C : Chunks)
      for (size_t I = 0; I < C.used; ++I)
        C.slot(I)->~T();
  }

  template <typename... Args> T &emplace_back(Args &&...A) {
    if (Chunks.empty() || Chunks.back().used == Chunks.back().capacity) {
      size_t Cap = Chunks.empty() ? 8 : std::min<size_t>(Chunks.back().capacity * 2, 4096);
      Chunks.push_back({std::unique_ptr<std::byte[]>(new std::byte[Cap * sizeof(T)]), 0, Cap});
    }
    Chunk &C = Chunks.back();
    T *P = new (C.slot(C.used)) T(std::forward<Args>(A)...);
    ++C.used;
    return *P;
  }

  // F(element) for every element, in insertion order.
  template <typename Fn> void forEach(Fn F) {
    for (Chunk &C : Chunks)
      for (size_t I = 0; I < C.used; ++I)
        F(*C.slot(I));
  }

private:
  struct Chunk {
    std::unique_ptr<std::byte[]> bytes;
    size_t used, capacity;
    T *slot(size_t I) { return reinterpret_cast<T *>(bytes.get()) + I; }
  };
  std::vector<Chunk> Chunks;
};

} // namespace linklab
