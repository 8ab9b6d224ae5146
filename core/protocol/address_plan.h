// The addresses a client can know before the executor answers, written
// once for the executor (emulator/process.cpp) and its clients: -noexec
// takes reservations in the order a run makes them and defines the
// executor's symbols, and so gives the run's addresses.
//
// Reservations (`reserve`, PROTOCOL.md) go upward from Base, page-rounded,
// each followed by an unmapped guard page, never reused.
#pragma once

#include "protocol/protocol.h"
#include "support/bits.h"
#include "support/error.h"

#include <algorithm>
#include <cstdint>
#include <vector>

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

// The executor's own symbols (the setup answer's list), at fixed places
// in its process: a return trap page, whose no-op return is what a static
// link makes of _init/_fini around no .init code; the program's ELF
// headers (__ehdr_start); and the brk heap that freestanding C runtimes
// carve from [__heap_start, __heap_end).
struct FixedAddresses {
  static constexpr uint64_t ReturnTrap = 0x1000, NoOp = ReturnTrap + 0x100, Headers = 0x10000;
  static constexpr uint64_t HeapBase = 0x40000000, HeapSpan = 0x40000000;
};

inline std::vector<ExposedSymbol> executorSymbols() {
  using F = FixedAddresses;
  return {{"__heap_start", F::HeapBase},
          {"__heap_end", F::HeapBase + F::HeapSpan},
          {"__ehdr_start", F::Headers},
          {"_init", F::NoOp},
          {"_fini", F::NoOp},
          {"__linklab_return_trap", F::ReturnTrap}};
}

} // namespace linklab::executor
