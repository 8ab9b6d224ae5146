// An in-process memory manager over a fixed, virtual target slab: graphs get
// deterministic target addresses and host working memory that stays
// readable after finalization, for -noexec links, checks and dumps.
//
// By default (llvm-jitlink's slab) each graph's segments follow the last
// graph's, each on a page boundary. Packed, segments of one protection from
// every graph share an arena carved from the slab, as the executor's memory
// manager places them: a link of the C runtime's hundreds of members then
// keeps its code together (glibc's RISC-V JALs reach only +-1 MiB).
#pragma once

#include "link/memory_manager.h"

#include <cstdlib>
#include <map>
#include <memory>

namespace linklab {

class SlabMemoryManager : public MemoryManager {
public:
  SlabMemoryManager(Addr Base, uint64_t PageSize, uint64_t SlabSize);
  void setPacked(bool On) { Packed = On; }

  void allocate(const void *Dylib, LinkGraph &G, OnAllocatedFn OnAllocated) override;
  void deallocate(std::vector<FinalizedAlloc> Allocs, std::function<void(Error)> OnDeallocated) override;

  // Reads target memory that some finalized allocation covers.
  Expected<std::span<const char>> read(Addr A, uint64_t Size) const;
  uint64_t pageSize() const { return PageSize; }
  // Every segment handed out so far, in address order.
  std::vector<SegmentRecord> segments() const;

private:
  struct Chunk {
    // Host copy of [address, address + size), from calloc: pages nothing is
    // copied into (zero-fill, padding) are never touched.
    std::unique_ptr<char, decltype(&std::free)> memory{nullptr, &std::free};
    uint64_t size = 0;
    uint64_t allocation;
  };
  struct Allocation {
    std::vector<Addr> chunks;
    std::vector<SegmentRecord> segments;
    bool finalized = false;
  };
  struct Arena {
    Addr base;
    uint64_t size, used;
    MemProt prot;
  };
  class InFlight;
  // Size bytes of the slab at a page boundary, or an error naming G.
  Expected<Addr> take(const LinkGraph &G, uint64_t Size);
  void release(uint64_t Id);

  Addr Base, Next;
  uint64_t PageSize, SlabSize;
  bool Packed = false;
  std::vector<Arena> Arenas;
  std::map<Addr, Chunk> Chunks;            // by target address
  std::map<uint64_t, Allocation> Allocations; // by FinalizedAlloc id
  uint64_t NextId = 1;
};

} // namespace linklab
