// Integer helpers shared across the core: alignment, little-endian loads and
// stores, and loads and stores in a target's data byte order. Every host
// linklab builds for is little-endian; so are the targets' instructions, but
// a big-endian target's data (AArch64 BE: pointers, deltas, GOT entries, ELF
// headers) is stored the other way round.
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

template <typename T> constexpr T byteSwap(T V) {
  if constexpr (sizeof(T) == 1)
    return V;
  else if constexpr (sizeof(T) == 2)
    return T(__builtin_bswap16(uint16_t(V)));
  else if constexpr (sizeof(T) == 4)
    return T(__builtin_bswap32(uint32_t(V)));
  else
    return T(__builtin_bswap64(uint64_t(V)));
}
// A data field in the target's byte order. A branch, not a select: wasm has
// no byte-swap instruction, and clang's select swapped every field (some
// twenty instructions for 64 bits) before throwing the swap away.
template <typename T> inline T readData(const char *P, bool BigEndian) {
  T V = readLE<T>(P);
  if (BigEndian) [[unlikely]]
    return byteSwap(V);
  return V;
}
template <typename T> inline void writeData(char *P, T V, bool BigEndian) {
  if (BigEndian) [[unlikely]]
    V = byteSwap(V);
  writeLE<T>(P, V);
}

} // namespace linklab
