// An in-process memory manager over a fixed, virtual target slab: graphs get
// deterministic target addresses (base + running offset, each segment on a
// page boundary) and host working memory that stays readable after
// finalization, for -noexec links, checks and dumps.
#pragma once

#include "link/memory_manager.h"

#include <map>

namespace linklab {

class SlabMemoryManager : public MemoryManager {
public:
  SlabMemoryManager(Addr Base, uint64_t PageSize, uint64_t SlabSize);

  void allocate(const void *Dylib, LinkGraph &G, OnAllocatedFn OnAllocated) override;
  void deallocate(std::vector<FinalizedAlloc> Allocs, std::function<void(Error)> OnDeallocated) override;

  // Reads target memory that some finalized allocation covers.
  Expected<std::span<const char>> read(Addr A, uint64_t Size) const;
  uint64_t pageSize() const { return PageSize; }
  // Every segment handed out so far, in address order.
  std::vector<SegmentRecord> segments() const;

private:
  struct Allocation {
    std::vector<char> memory; // host copy of [base, base + size)
    std::vector<SegmentRecord> segments;
    bool finalized = false;
  };
  class InFlight;

  Addr Base, Next;
  uint64_t PageSize, SlabSize;
  std::map<Addr, Allocation> Allocations; // by base address
};

} // namespace linklab
