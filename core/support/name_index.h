// Names to small values by open addressing over one flat array of
// (hash, entry number) slots. The names are views into bytes that outlive
// the index (an archive's symbol table), so adding one allocates nothing:
// libc.a's 13,000 names cost one entries array and one slot array, where an
// unordered_map allocated, and later freed, a node per name.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace linklab {

template <typename V> class NameIndex {
public:
  struct Entry {
    std::string_view name;
    V value;
  };

  void reserve(size_t N) {
    Entries.reserve(N);
    if (N * 2 > Slots.size())
      rehash(std::bit_ceil(N * 2));
  }

  // Adds Name -> Value unless Name is there already (the first one stays).
  bool insert(std::string_view Name, V Value) {
    if ((Entries.size() + 1) * 2 > Slots.size())
      rehash(std::max<size_t>(64, Slots.size() * 2));
    uint32_t H = hashOf(Name);
    Slot &S = probe(Name, H);
    if (S.entry)
      return false;
    Entries.push_back({Name, Value});
    S = {H, uint32_t(Entries.size())};
    return true;
  }

  // Name's value, or null when Name was never inserted.
  V *find(std::string_view Name) {
    if (Slots.empty())
      return nullptr;
    Slot &S = probe(Name, hashOf(Name));
    return S.entry ? &Entries[S.entry - 1].value : nullptr;
  }
  const V *find(std::string_view Name) const { return const_cast<NameIndex *>(this)->find(Name); }

  // Every entry, in the order inserted.
  const std::vector<Entry> &entries() const { return Entries; }
  size_t size() const { return Entries.size(); }

private:
  struct Slot {
    uint32_t hash = 0;
    uint32_t entry = 0; // 1 + the entry's number; 0: empty
  };
  static uint32_t hashOf(std::string_view Name) { return uint32_t(std::hash<std::string_view>{}(Name)); }

  // Name's slot, or the empty one where it would go (at most half the
  // slots are used, so the probe ends).
  Slot &probe(std::string_view Name, uint32_t H) {
    size_t Mask = Slots.size() - 1;
    for (size_t I = H & Mask;; I = (I + 1) & Mask) {
      Slot &S = Slots[I];
      if (!S.entry || (S.hash == H && Entries[S.entry - 1].name == Name))
        return S;
    }
  }
  void rehash(size_t N) {
    std::vector<Slot> Old = std::move(Slots);
    Slots.assign(N, Slot{});
    for (const Slot &S : Old)
      if (S.entry) {
        size_t I = S.hash & (N - 1);
        while (Slots[I].entry)
          I = (I + 1) & (N - 1);
        Slots[I] = S;
      }
  }

  std::vector<Entry> Entries;
  std::vector<Slot> Slots; // a power of two in size
};

} // namespace linklab
