// A map from pointers to pointers with open addressing (linear probing in one
// flat array, at most half full): the per-edge table lookups of the GOT and
// stub passes hit one cache line instead of chasing a node-based bucket list.
#pragma once

#include <cstdint>
#include <vector>

namespace linklab {

template <typename K, typename V> class PointerMap {
public:
  // The value stored for Key (null when absent, then inserted as null).
  V *&operator[](K *Key) {
    if ((Count + 1) * 2 > Slots.size())
      grow();
    Slot &S = probe(Key);
    if (!S.key) {
      S.key = Key;
      ++Count;
    }
    return S.value;
  }

private:
  struct Slot {
    K *key = nullptr;
    V *value = nullptr;
  };
  Slot &probe(K *Key) {
    size_t Mask = Slots.size() - 1;
    // Fibonacci hashing of the address; its low bits are alignment zeros.
    size_t I = size_t((uintptr_t(Key) >> 3) * 0x9E3779B97F4A7C15ull >> 20) & Mask;
    while (Slots[I].key && Slots[I].key != Key)
      I = (I + 1) & Mask;
    return Slots[I];
  }
  void grow() {
    std::vector<Slot> Old = std::move(Slots);
    Slots.assign(Old.empty() ? 64 : Old.size() * 2, Slot{});
    for (const Slot &S : Old)
      if (S.key)
        probe(S.key) = S;
  }
  std::vector<Slot> Slots;
  size_t Count = 0;
};

} // namespace linklab
