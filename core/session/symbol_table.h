// The session's table of global names. Open addressing over one flat array
// of (hash, entry) slots, with names copied into chunks the table owns and
// entries in a stable pool: defining a name costs no allocation of its own
// and a lookup one probe sequence, where an unordered_map of strings
// allocated a node per name and chased a bucket list on every lookup.
#pragma once

#include "support/stable_pool.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

namespace linklab {

template <typename Entry> class SymbolTable {
public:
  // Entry for Name, or null.
  Entry *find(std::string_view Name) const {
    if (Slots.empty())
      return nullptr;
    const Slot &S = Slots[probe(Name, hashOf(Name))];
    return S.node && S.node != tombstone() ? &S.node->entry : nullptr;
  }
  bool contains(std::string_view Name) const { return find(Name) != nullptr; }

  // Entry for Name, value-initialised when Name is new; and whether it is.
  std::pair<Entry *, bool> insert(std::string_view Name) {
    if ((Used + 1) * 2 > Slots.size())
      grow(Slots.size() * 2);
    size_t H = hashOf(Name);
    Slot &S = Slots[probe(Name, H)];
    if (S.node && S.node != tombstone())
      return {&S.node->entry, false};
    if (!S.node)
      ++Used; // a reused tombstone was counted already
    S = {H, &Nodes.emplace_back(Node{copyName(Name), Entry{}, true})};
    ++Live;
    return {&S.node->entry, true};
  }

  void erase(std::string_view Name) {
    if (Slots.empty())
      return;
    Slot &S = Slots[probe(Name, hashOf(Name))];
    if (!S.node || S.node == tombstone())
      return;
    S.node->live = false;
    S.node->entry = Entry{};
    S.node = tombstone();
    --Live;
  }
  template <typename Pred> void eraseIf(Pred P) {
    Nodes.forEach([&](Node &N) {
      if (N.live && P(N.entry))
        erase(N.name);
    });
  }
  // F(name, entry) for every entry, in insertion order.
  template <typename Fn> void forEach(Fn F) {
    Nodes.forEach([&](Node &N) {
      if (N.live)
        F(N.name, N.entry);
    });
  }

  size_t size() const { return Live; }
  // Room for N names without growing (growth stays geometric).
  void reserve(size_t N) {
    if (N * 2 > Slots.size())
      grow(std::max(N * 2, Slots.size() * 2));
  }

private:
  struct Node {
    std::string_view name;
    Entry entry;
    bool live;
  };
  struct Slot {
    size_t hash = 0;
    Node *node = nullptr; // null: empty; tombstone(): erased
  };
  static Node *tombstone() { return reinterpret_cast<Node *>(alignof(Node)); }
  static size_t hashOf(std::string_view Name) { return std::hash<std::string_view>{}(Name); }

  // Name's slot, or the first free one on its probe sequence (an erased
  // slot before an empty one, so tombstones are reused).
  size_t probe(std::string_view Name, size_t H) const {
    size_t Mask = Slots.size() - 1, I = H & Mask, Free = SIZE_MAX;
    for (;; I = (I + 1) & Mask) {
      const Slot &S = Slots[I];
      if (!S.node)
        return Free != SIZE_MAX ? Free : I;
      if (S.node == tombstone())
        Free = Free != SIZE_MAX ? Free : I;
      else if (S.hash == H && S.node->name == Name)
        return I;
    }
  }
  void grow(size_t N) {
    std::vector<Slot> Old = std::move(Slots);
    Slots.assign(std::bit_ceil(std::max<size_t>(N, 64)), Slot{}); // probes mask with size - 1
    Used = 0;
    for (const Slot &S : Old)
      if (S.node && S.node != tombstone()) {
        Slot &D = Slots[probe(S.node->name, S.hash)];
        D = S;
        ++Used;
      }
  }
  std::string_view copyName(std::string_view Name) {
    if (Name.size() > NameSpace) {
      size_t Size = std::max<size_t>(Name.size(), 64 << 10);
      NameChunks.push_back(std::unique_ptr<char[]>(new char[Size]));
      NameNext = NameChunks.back().get();
      NameSpace = Size;
    }
    char *P = NameNext;
    if (!Name.empty())
      std::memcpy(P, Name.data(), Name.size());
    NameNext += Name.size();
    NameSpace -= Name.size();
    return {P, Name.size()};
  }

  std::vector<Slot> Slots; // a power of two in size, at most half used (live or erased)
  size_t Used = 0, Live = 0;
  StablePool<Node> Nodes;
  std::vector<std::unique_ptr<char[]>> NameChunks;
  char *NameNext = nullptr;
  size_t NameSpace = 0;
};

} // namespace linklab
