// The addresses a client can know before the executor answers, written
// once for the executor (emulator/process.cpp) and its clients: -noexec
// takes reservations in the order a run makes them and defines the
// executor's symbols, and so gives the run's addresses.
//
// Reservations (`reserve`, PROTOCOL.md) go upward in one of two regions,
// page-rounded, each followed by an unmapped guard page, never reused:
// the objects' graphs from Base, the C runtime's arenas (ProcessDylib,
// link/process_layout.h) from RuntimeBase. Each region has its own cursor,
// so the runtime's addresses do not depend on the program's objects nor
// theirs on the runtime: a run that maps a prepared runtime image
// (program/runtime_image.h) lays everything out where a run that links the
// runtime, -noexec and linklab-run do. The regions are 512 MiB apart at
// most, inside every arch's PC-relative data reach (branches between them
// go through stubs, as a JIT's calls into its process do).
#pragma once

#include "protocol/protocol.h"
#include "support/bits.h"
#include "support/error.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace linklab::executor {

enum class Region : uint8_t { Objects, Runtime };

struct ReservationPlan {
  static constexpr uint64_t Base = 0x10000000, RuntimeBase = 0x30000000, End = 0x40000000, PageSize = 0x1000;
  uint64_t next[2] = {Base, RuntimeBase}; // per Region

  static uint64_t regionEnd(Region R) { return R == Region::Objects ? RuntimeBase : End; }

  // The base of a reservation of Size bytes at Align in R; the plan moves past it.
  Expected<uint64_t> take(uint64_t Size, uint64_t Align, Region R = Region::Objects) {
    if (uint8_t(R) > uint8_t(Region::Runtime))
      return makeError(formatv("no reservation region %u", unsigned(R)));
    uint64_t &Next = next[uint8_t(R)], Limit = regionEnd(R);
    if (Size == 0 || Size > End - Base)
      return makeError(formatv("cannot reserve %s bytes", hex(Size).c_str()));
    if (Align == 0 || (Align & (Align - 1)) || Align > (1u << 30))
      return makeError(formatv("reservation alignment %s is not a power of two up to 1 GiB", hex(Align).c_str()));
    uint64_t At = alignTo(Next, std::max(Align, PageSize));
    Size = alignTo(Size, PageSize);
    if (At > Limit || Limit - At < Size)
      return makeError(formatv("executor address space exhausted reserving %s bytes for the %s", hex(Size).c_str(),
                               R == Region::Objects ? "program's objects" : "C runtime"));
    Next = At + Size + PageSize; // the guard page
    return At;
  }
};

// A SlabMemoryManager's ReserveFn answering as a fresh executor would.
inline auto reservationsAsRun() {
  return [Plan = ReservationPlan()](uint64_t Size, uint64_t Align, bool Arena) mutable {
    return Plan.take(Size, Align, Arena ? Region::Runtime : Region::Objects);
  };
}

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
