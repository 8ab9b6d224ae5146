// The string functions a link spends its time in, for the wasm module, in
// place of Emscripten's musl ones, which step a byte (memcmp) or four
// (strnlen, through memchr) at a time: eight bytes per step here.
// memcmp (and bcmp, which clang calls where only equality matters): a link
// compares names all the time (a symbol table's hits, section names against
// ".tdata" and the like), and clang expands no constant-length memcmp into
// loads for wasm as it does for x86. strnlen: every ELF symbol's name.
// Built with -fno-builtin (CMakeLists.txt) so that clang turns no loop back
// into a call of the function it is in.
#include <stddef.h>
#include <stdint.h>

static uint64_t load64(const unsigned char *P) {
  uint64_t V;
  __builtin_memcpy(&V, P, 8);
  return V;
}

int memcmp(const void *Left, const void *Right, size_t N) {
  const unsigned char *L = Left, *R = Right;
  for (; N >= 8; N -= 8, L += 8, R += 8) {
    uint64_t Diff = load64(L) ^ load64(R);
    if (Diff) {
      // wasm is little-endian: the lowest set bit is in the first byte that differs.
      size_t I = (size_t)__builtin_ctzll(Diff) / 8;
      return L[I] - R[I];
    }
  }
  for (; N; --N, ++L, ++R)
    if (*L != *R)
      return *L - *R;
  return 0;
}

int bcmp(const void *Left, const void *Right, size_t N) { return memcmp(Left, Right, N); }

// Reads only [S, S + N): wasm memory ends where an object at its end does.
size_t strnlen(const char *S, size_t N) {
  const unsigned char *P = (const unsigned char *)S;
  const uint64_t Ones = 0x0101010101010101ull, Highs = 0x8080808080808080ull;
  for (; N >= 8; N -= 8, P += 8) {
    uint64_t V = load64(P);
    // Marks each zero byte's high bit (and maybe bytes after a zero, never before it).
    uint64_t Zeros = (V - Ones) & ~V & Highs;
    if (Zeros)
      return (size_t)(P - (const unsigned char *)S) + (size_t)__builtin_ctzll(Zeros) / 8;
  }
  for (; N && *P; --N, ++P)
    ;
  return (size_t)(P - (const unsigned char *)S);
}
