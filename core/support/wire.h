// The little-endian field encoding of the executor protocol's messages and
// of the runtime image cache's files. A record lists its fields once, in
// order, in `template <class IO> void fields(IO &)` (or a free
// `fields(IO &, T &)` beside a type that is not ours); the same list drives
// writing and reading, so the two cannot drift.
//   integers, bools, enums   their own size
//   strings, byte vectors    u32 length, then the bytes
//   other vectors            u32 count, then the items
//   pairs                    first, then second
#pragma once

#include "support/error.h"

#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace linklab::wire {

template <typename T> struct IsVector : std::false_type {};
template <typename T> struct IsVector<std::vector<T>> : std::true_type {};
template <typename T> struct IsPair : std::false_type {};
template <typename A, typename B> struct IsPair<std::pair<A, B>> : std::true_type {};
template <typename T>
constexpr bool IsBytes = std::is_same_v<T, std::string> || std::is_same_v<T, std::vector<uint8_t>>;

struct Writer {
  std::vector<uint8_t> &Out;
  template <typename T> void operator()(const T &V) {
    if constexpr (std::is_enum_v<T>) {
      (*this)(std::underlying_type_t<T>(V));
    } else if constexpr (std::is_integral_v<T>) {
      for (size_t I = 0; I < sizeof(T); ++I)
        Out.push_back(uint8_t(uint64_t(V) >> (8 * I)));
    } else if constexpr (IsBytes<T>) {
      (*this)(uint32_t(V.size()));
      Out.insert(Out.end(), V.begin(), V.end());
    } else if constexpr (IsVector<T>::value) {
      (*this)(uint32_t(V.size()));
      for (const auto &E : V)
        (*this)(E);
    } else if constexpr (IsPair<T>::value) {
      (*this)(V.first), (*this)(V.second);
    } else if constexpr (requires(T & M) { M.fields(*this); }) {
      const_cast<T &>(V).fields(*this); // fields() only reads when writing
    } else {
      fields(*this, const_cast<T &>(V));
    }
  }
};

template <typename T> std::vector<uint8_t> encode(const T &V) {
  std::vector<uint8_t> Out;
  Writer W{Out};
  W(V);
  return Out;
}

// The fewest bytes a T takes (its encoding with empty strings and lists):
// what bounds a list's count by the bytes left.
template <typename T> size_t minSize() {
  static const size_t Size = encode(T{}).size();
  return Size;
}

// Reads fields back; the first shortfall sets Problem and every later read is
// a no-op, so a record's fields() needs no error checks of its own. Values
// are as written: whether they make sense is the caller's to check.
struct Reader {
  explicit Reader(std::span<const uint8_t> Bytes) : In(Bytes) {}
  std::span<const uint8_t> In;
  size_t Pos = 0;
  std::string Problem;

  bool take(uint64_t N, const char *What) {
    if (!Problem.empty())
      return false;
    if (In.size() - Pos < N) {
      Problem = formatv("truncated %s at payload offset %zu (need %llu bytes, %zu left)", What, Pos,
                        (unsigned long long)N, In.size() - Pos);
      return false;
    }
    return true;
  }
  template <typename T> void operator()(T &V) {
    if constexpr (std::is_enum_v<T>) {
      std::underlying_type_t<T> U{};
      (*this)(U);
      V = T(U);
    } else if constexpr (std::is_integral_v<T>) {
      if (!take(sizeof(T), "integer"))
        return;
      uint64_t X = 0;
      for (size_t I = 0; I < sizeof(T); ++I)
        X |= uint64_t(In[Pos + I]) << (8 * I);
      V = T(X);
      Pos += sizeof(T);
    } else if constexpr (IsBytes<T>) {
      uint32_t N = 0;
      (*this)(N);
      if (!take(N, "byte string"))
        return;
      V.assign(In.begin() + Pos, In.begin() + Pos + N);
      Pos += N;
    } else if constexpr (IsVector<T>::value) {
      uint32_t N = 0;
      (*this)(N);
      // A count the bytes left cannot hold is a lie: checked first, so a
      // hostile count allocates nothing.
      if (!take(uint64_t(N) * minSize<typename T::value_type>(), "list"))
        return;
      V.clear();
      V.reserve(N);
      for (uint32_t I = 0; I < N && Problem.empty(); ++I)
        V.emplace_back(), (*this)(V.back());
    } else if constexpr (IsPair<T>::value) {
      (*this)(V.first), (*this)(V.second);
    } else if constexpr (requires(T & M) { M.fields(*this); }) {
      V.fields(*this);
    } else {
      fields(*this, V);
    }
  }
  bool atEnd() const { return Problem.empty() && Pos == In.size(); }
};

} // namespace linklab::wire
