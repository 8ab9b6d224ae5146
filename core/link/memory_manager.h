// Memory managers give a graph's blocks target addresses and working memory,
// and later move the fixed-up bytes into the executor and protect them.
//
// Every operation answers through a callback, now (in-process) or later (an
// executor across a pipe, or the browser's event loop): callers must not
// assume the callback ran before the call returned.
#pragma once

#include "graph/link_graph.h"

#include <functional>
#include <map>

namespace linklab {

// A finalized allocation, named by its base address in the executor.
struct FinalizedAlloc {
  Addr address = 0;
};

class InFlightAlloc {
public:
  virtual ~InFlightAlloc() = default;
  // Makes the working memory the executor's memory, with final protections.
  virtual void finalize(std::function<void(Expected<FinalizedAlloc>)> OnFinalized) = 0;
  // Gives the reservation back without finalizing.
  virtual void abandon(std::function<void(Error)> OnAbandoned) = 0;
};

using OnAllocatedFn = std::function<void(Expected<std::unique_ptr<InFlightAlloc>>)>;

// The Dylib a C runtime's graphs are allocated for: the process's own code,
// which llvm-jitlink finds in its own process, so a slab sized for the
// objects given (-slab-allocate) places it apart from them.
extern const char ProcessDylib;

class MemoryManager {
public:
  virtual ~MemoryManager() = default;
  // Assigns every allocatable block an address and working memory (the block's
  // content is copied there, and later fixups write there). `Dylib` names the
  // symbol table the graph links into (opaque; may be null), or is
  // &ProcessDylib for a C runtime's graphs.
  virtual void allocate(const void *Dylib, LinkGraph &G, OnAllocatedFn OnAllocated) = 0;
  // Releases finalized allocations, in one batch.
  virtual void deallocate(std::vector<FinalizedAlloc> Allocs, std::function<void(Error)> OnDeallocated) = 0;
};

// Groups a graph's sections into segments by protection, and lays blocks out
// inside each: content blocks first (by section ordinal, then block ordinal),
// zero-fill blocks after, each at its alignment.
class BasicLayout {
public:
  struct Segment {
    MemProt prot = MemProt::None;
    uint64_t alignment = 1;
    uint64_t contentSize = 0;
    uint64_t zeroFillSize = 0;
    Addr address = 0;           // set by the memory manager before apply()
    char *workingMem = nullptr; // contentSize bytes, set before apply()
    std::vector<Block *> contentBlocks;
    std::vector<Block *> zeroFillBlocks;
  };

  explicit BasicLayout(LinkGraph &G);
  // Segments in increasing protection order (R, RW, RX, ...).
  std::map<MemProt, Segment> &segments() { return Segments; }
  // Total bytes when each segment starts on a page boundary; an error when
  // the blocks' sizes do not fit in the address space.
  Expected<uint64_t> pageAlignedSize(uint64_t PageSize) const;
  // Gives the segments consecutive page-aligned addresses from Base (the
  // range pageAlignedSize measures); working memory is the manager's to set.
  void placeSegments(Addr Base, uint64_t PageSize);
  // Gives blocks their addresses and copies content into working memory.
  // Each block is aligned on its address, as JITLink's BasicLayout aligns
  // it: in a segment whose address its alignment does not divide (a slab at
  // an odd -slab-address) the padding differs from the measured layout's,
  // which is an error unless it fits in the pages placeSegments gave.
  Error apply();

private:
  LinkGraph &G;
  std::map<MemProt, Segment> Segments;
  uint64_t PlacedPageSize = 0;     // placeSegments': each segment owns whole pages
  const Block *TooLarge = nullptr; // the first block whose end wraps around
};

// One protected, contiguous range in the executor (for executors and tests).
struct SegmentRecord {
  Addr address;
  uint64_t size; // content + zero fill
  MemProt prot;
};

} // namespace linklab
