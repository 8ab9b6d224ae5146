// An in-process memory manager over a fixed, virtual target slab: graphs get
// deterministic target addresses and host working memory that stays
// readable after finalization, for -noexec links, checks and dumps.
//
// The objects' graphs are laid out as llvm-jitlink's slab lays them: each
// graph's segments follow the last graph's, each on a page boundary. A C
// runtime's graphs (allocated for ProcessDylib) are the process's own code
// to llvm-jitlink, so they go to a region of their own right after the slab,
// packed: segments of one protection from every graph share an arena, as
// the executor's memory manager places them, so the runtime's hundreds of
// members keep their code together (glibc's RISC-V JALs reach only
// +-1 MiB), and a slab sized for the objects (-slab-allocate 100Kb) holds
// just them.
//
// Without a slab (-noexec given no -slab-* option), every graph is placed as
// a run places it (link/process_layout.h), in reservations a given function
// makes as the executor would: -noexec then shows the addresses that run.
#pragma once

#include "link/process_layout.h"

#include <cstdlib>
#include <map>
#include <memory>

namespace linklab {

class SlabMemoryManager : public MemoryManager {
public:
  SlabMemoryManager(Addr Base, uint64_t PageSize, uint64_t SlabSize);
  // No slab: Reserve(size, alignment, arena) answers where the executor
  // would reserve (arena: for the C runtime's graphs, ProcessLayout).
  using ReserveFn = std::function<Expected<Addr>(uint64_t Size, uint64_t Align, bool Arena)>;
  SlabMemoryManager(uint64_t PageSize, ReserveFn Reserve);

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
    uint64_t placed = 0; // its id in AsRun
  };
  struct Arena {
    Addr base;
    uint64_t size, used;
    MemProt prot;
  };
  struct Region {
    Addr base, next;
    uint64_t size;
    const char *what;
  };
  class InFlight;
  // Size bytes of R at a page boundary, or an error naming G.
  static Expected<Addr> take(Region &R, const LinkGraph &G, uint64_t Size);
  void fitProcessRegion(unsigned PointerSize);
  void allocatePacked(LinkGraph &G, BasicLayout &Layout, uint64_t Id, OnAllocatedFn &OnAllocated);
  void allocateAsRun(const void *Dylib, LinkGraph &G, BasicLayout &Layout, uint64_t Id, OnAllocatedFn &OnAllocated);
  // Backs Layout's placed segments with working memory, applies the layout
  // and hands the allocation to OnAllocated (or its error, released).
  void commit(LinkGraph &G, BasicLayout &Layout, uint64_t Id, OnAllocatedFn &OnAllocated);
  char *addChunk(uint64_t Id, Addr At, uint64_t Size);
  // Zeroes what Layout.apply() left unwritten in allocation Id's chunks.
  void zeroUnwritten(uint64_t Id, BasicLayout &Layout);
  void release(uint64_t Id);

  uint64_t PageSize;
  Region Slab, Process;
  std::vector<Arena> Arenas; // in Process
  ReserveFn Reserve;         // set when there is no slab
  std::optional<ProcessLayout> AsRun;
  std::map<Addr, Chunk> Chunks;               // by target address
  std::map<uint64_t, Allocation> Allocations; // by FinalizedAlloc id
  uint64_t NextId = 1;
};

} // namespace linklab
