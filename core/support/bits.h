// Integer helpers shared across the core: alignment and little-endian
// loads and stores (every target linklab supports is little-endian, as is
// every host it builds for).
#pragma once

#include <cstdint>
#include <cstring>

namespace linklab {

constexpr uint64_t alignTo(uint64_t V, uint64_t Align) { return (V + Align - 1) / Align * Align; }

template <typename T> inline T readLE(const char *P) {
  T V;
  std::memcpy(&V, P, sizeof(T));
  return V;
}
template <typename T> inline void writeLE(char *P, T V) { std::memcpy(P, &V, sizeof(T)); }

} // namespace linklab
