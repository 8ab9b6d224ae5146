// Signalling NaNs through conversions and classification: issignaling of
// float, double and long double values made from bit patterns, and of the
// same values after each conversion between the formats (the hardware
// quiets a signalling NaN it converts). On i386 a float or double return
// value travels through the x87 (fld/fstp), which quiets it too; an 80-bit
// load keeps it signalling. The values pass through noinline functions so
// that the compiler cannot fold the conversions. (The exception flags are
// left out: whether isnan raises invalid for a signalling NaN depends on
// the instruction the compiler picks at each optimisation level.)
#include <stdint.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static float floatOf(uint32_t Bits) {
  float F;
  memcpy(&F, &Bits, sizeof F);
  return F;
}
__attribute__((noinline)) static double doubleOf(uint64_t Bits) {
  double D;
  memcpy(&D, &Bits, sizeof D);
  return D;
}
__attribute__((noinline)) static long double widenFloat(float F) { return F; }
__attribute__((noinline)) static long double widenDouble(double D) { return D; }
__attribute__((noinline)) static double floatToDouble(float F) { return F; }
__attribute__((noinline)) static float doubleToFloat(double D) { return (float)D; }

static uint32_t bitsOfFloat(float F) {
  uint32_t B;
  memcpy(&B, &F, sizeof B);
  return B;
}
static uint64_t bitsOfDouble(double D) {
  uint64_t B;
  memcpy(&B, &D, sizeof B);
  return B;
}

static void report(const char *What, int Signaling) { printf("%-26s issignaling %d\n", What, Signaling); }

int main(void) {
  static const uint32_t FloatBits[] = {0x7fa00000u, 0xff800001u, 0x7fc00000u, 0x7f800000u};
  static const uint64_t DoubleBits[] = {0x7ff4000000000000ull, 0xfff0000000000001ull, 0x7ff8000000000000ull};
  char What[64];
  for (unsigned I = 0; I < sizeof FloatBits / sizeof *FloatBits; ++I) {
    float F = floatOf(FloatBits[I]);
    snprintf(What, sizeof What, "float %08x -> %08x", FloatBits[I], bitsOfFloat(F));
    report(What, __builtin_issignaling(F));
    double D = floatToDouble(floatOf(FloatBits[I]));
    snprintf(What, sizeof What, "  as double %016llx", (unsigned long long)bitsOfDouble(D));
    report(What, __builtin_issignaling(D));
    long double L = widenFloat(floatOf(FloatBits[I]));
    report("  as long double", __builtin_issignaling(L));
  }
  for (unsigned I = 0; I < sizeof DoubleBits / sizeof *DoubleBits; ++I) {
    double D = doubleOf(DoubleBits[I]);
    snprintf(What, sizeof What, "double %016llx", (unsigned long long)bitsOfDouble(D));
    report(What, __builtin_issignaling(D));
    float F = doubleToFloat(doubleOf(DoubleBits[I]));
    snprintf(What, sizeof What, "  as float %08x", bitsOfFloat(F));
    report(What, __builtin_issignaling(F));
    long double L = widenDouble(doubleOf(DoubleBits[I]));
    report("  as long double", __builtin_issignaling(L));
  }
  return 0;
}
