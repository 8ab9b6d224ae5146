// SSE2 integer instructions and 128-by-64-bit division, which
// linklab-executor computes inline or with the host's division
// (emulator/x86_helpers.cpp), on data that reaches every lane: printed here
// and by the same source run natively. `prog trap` ends with a divide error.
#include <emmintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void show(const char *Name, __m128i V) {
  uint32_t L[4];
  memcpy(L, &V, sizeof L);
  printf("%-10s %08x %08x %08x %08x\n", Name, L[0], L[1], L[2], L[3]);
}

// Through memory, so each operation is the instruction itself on values the
// compiler cannot fold.
static volatile __m128i A, B, Same;

#define BINARY(NAME, FN)                                                                                           \
  show(NAME, FN(A, B));                                                                                            \
  show(NAME "=", FN(Same, Same)) /* both operands one register */

#define SHUFFLE(IMM)                                                                                               \
  show("pshufd" #IMM, _mm_shuffle_epi32(A, IMM));                                                                  \
  show("shufps" #IMM, _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(A), _mm_castsi128_ps(B), IMM)))

struct Division {
  uint64_t hi, lo, divisor;
};

static void divq(struct Division D) {
  uint64_t Q = D.lo, R = D.hi;
  __asm__ volatile("divq %2" : "+a"(Q), "+d"(R) : "rm"(D.divisor));
  printf("divq  %016llx:%016llx / %016llx = %016llx rem %016llx\n", (unsigned long long)D.hi,
         (unsigned long long)D.lo, (unsigned long long)D.divisor, (unsigned long long)Q, (unsigned long long)R);
}

static void idivq(struct Division D) {
  uint64_t Q = D.lo, R = D.hi;
  __asm__ volatile("idivq %2" : "+a"(Q), "+d"(R) : "rm"(D.divisor));
  printf("idivq %016llx:%016llx / %016llx = %016llx rem %016llx\n", (unsigned long long)D.hi,
         (unsigned long long)D.lo, (unsigned long long)D.divisor, (unsigned long long)Q, (unsigned long long)R);
}

// RDX:RAX = 1:0 divided by 1: the quotient does not fit, #DE at +7.
__asm__(".text\n.globl trap_divq\ntrap_divq:\n movl $1, %edx\n xorl %eax, %eax\n divq %rdi\n ret\n");
uint64_t trap_divq(uint64_t Divisor);

int main(int Argc, char **Argv) {
  A = _mm_set_epi32(0x80000000, 0x7fffffff, 0x00ff8001, 0xfedcba98);
  B = _mm_set_epi32(0x80000000, 0x00000001, 0x00fe8001, 0x12345678);
  Same = _mm_set_epi32(0x01020304, 0xffffffff, 0x80808080, 0x7f7f0000);
  BINARY("pand", _mm_and_si128);
  BINARY("por", _mm_or_si128);
  BINARY("pxor", _mm_xor_si128);
  BINARY("pandn", _mm_andnot_si128);
  BINARY("paddb", _mm_add_epi8);
  BINARY("paddw", _mm_add_epi16);
  BINARY("paddd", _mm_add_epi32);
  BINARY("paddq", _mm_add_epi64);
  BINARY("psubb", _mm_sub_epi8);
  BINARY("psubw", _mm_sub_epi16);
  BINARY("psubd", _mm_sub_epi32);
  BINARY("psubq", _mm_sub_epi64);
  BINARY("pcmpeqb", _mm_cmpeq_epi8);
  BINARY("pcmpeqw", _mm_cmpeq_epi16);
  BINARY("pcmpeqd", _mm_cmpeq_epi32);
  BINARY("punpcklbw", _mm_unpacklo_epi8);
  BINARY("punpckhbw", _mm_unpackhi_epi8);
  BINARY("punpcklwd", _mm_unpacklo_epi16);
  BINARY("punpckhwd", _mm_unpackhi_epi16);
  BINARY("punpckldq", _mm_unpacklo_epi32);
  BINARY("punpckhdq", _mm_unpackhi_epi32);
  BINARY("punpcklqdq", _mm_unpacklo_epi64);
  BINARY("punpckhqdq", _mm_unpackhi_epi64);
  BINARY("pmuludq", _mm_mul_epu32);
  SHUFFLE(0x00);
  SHUFFLE(0x1b);
  SHUFFLE(0xe4);
  SHUFFLE(0x4e);
  SHUFFLE(0xb1);
  printf("pmovmskb   %04x %04x %04x\n", _mm_movemask_epi8(A), _mm_movemask_epi8(B), _mm_movemask_epi8(Same));
  volatile uint32_t W = 0x89abcdef;
  volatile uint64_t Q = 0xfedcba9876543210;
  show("movd", _mm_cvtsi32_si128((int)W));
  show("movq", _mm_cvtsi64_si128((long long)Q));

  const struct Division Unsigned[] = {
      {0, 100, 7},
      {1, 0, 3},
      {0x0123456789abcdef, 0xfedcba9876543210, 0xffffffffffffffff},
      {0x7ffffffffffffffe, 0xffffffffffffffff, 0x7fffffffffffffff},
      {5, 5, 6},
  };
  for (unsigned I = 0; I < sizeof Unsigned / sizeof *Unsigned; ++I)
    divq(Unsigned[I]);
  const struct Division Signed[] = {
      {0, 100, (uint64_t)-7},
      {(uint64_t)-1, (uint64_t)-100, 7},
      {(uint64_t)-1, (uint64_t)-100, (uint64_t)-7},
      {(uint64_t)-1, 0x8000000000000000, 1},                  // INT64_MIN / 1
      {0, 0x7fffffffffffffff, (uint64_t)-1},                  // INT64_MAX / -1
      {0x3fffffffffffffff, 0x0000000000000001, 0x7fffffffffffffff}, // quotient INT64_MAX
      {0xc000000000000000, 0x8000000000000000, 0x7fffffffffffffff}, // quotient INT64_MIN
  };
  for (unsigned I = 0; I < sizeof Signed / sizeof *Signed; ++I)
    idivq(Signed[I]);
  fflush(stdout);
  if (Argc > 1 && strcmp(Argv[1], "trap") == 0)
    return (int)trap_divq(1);
  return 0;
}
