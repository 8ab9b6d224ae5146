#include "support/error.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace linklab {

// Defined in every build: an assert-enabled user of an NDEBUG library calls it.
void Error::reportUnchecked(const std::string *Message) {
  if (Message)
    std::fprintf(stderr, "linklab: error dropped unchecked: %s\n", Message->c_str());
  else
    std::fprintf(stderr, "linklab: error dropped unchecked (a success value)\n");
  std::abort();
}

std::string hex(uint64_t V) {
  char Buf[24];
  std::snprintf(Buf, sizeof(Buf), "0x%llx", (unsigned long long)V);
  return Buf;
}

std::string signedHex(int64_t V) { return V < 0 ? "-" + hex(0 - uint64_t(V)) : hex(uint64_t(V)); }

std::string formatv(const char *Fmt, ...) {
  va_list Args;
  va_start(Args, Fmt);
  va_list Copy;
  va_copy(Copy, Args);
  int N = std::vsnprintf(nullptr, 0, Fmt, Copy);
  va_end(Copy);
  std::string Out(N > 0 ? size_t(N) : 0, '\0');
  if (N > 0)
    std::vsnprintf(Out.data(), Out.size() + 1, Fmt, Args);
  va_end(Args);
  return Out;
}

} // namespace linklab
