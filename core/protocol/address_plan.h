// Where the executor puts reservations (`reserve`, PROTOCOL.md): upward
// from Base, page-rounded, each followed by an unmapped guard page, never
// reused. Written once for the executor (emulator/process.cpp) and for
// -noexec, which takes reservations in the same order a run makes them and
// so predicts the run's addresses.
#pragma once

#include "support/bits.h"
#include "support/error.h"

#include <algorithm>
#include <cstdint>

namespace linklab::executor {

struct ReservationPlan {
  static constexpr uint64_t Base = 0x10000000, End = 0x40000000, PageSize = 0x1000;
  uint64_t next = Base;

  // The base of a reservation of Size bytes at Align; the plan moves past it.
  Expected<uint64_t> take(uint64_t Size, uint64_t Align) {
    if (Size == 0 || Size > End - Base)
      return makeError(formatv("cannot reserve %s bytes", hex(Size).c_str()));
    if (Align == 0 || (Align & (Align - 1)) || Align > (1u << 30))
      return makeError(formatv("reservation alignment %s is not a power of two up to 1 GiB", hex(Align).c_str()));
    uint64_t At = alignTo(next, std::max(Align, PageSize));
    Size = alignTo(Size, PageSize);
    if (At + Size > End)
      return makeError(formatv("executor address space exhausted reserving %s bytes", hex(Size).c_str()));
    next = At + Size + PageSize; // the guard page
    return At;
  }
};

} // namespace linklab::executor
