#include "link/slab_memory_manager.h"

namespace linklab {


class SlabMemoryManager::InFlight : public InFlightAlloc {
public:
  InFlight(SlabMemoryManager &MM, Addr Base) : MM(MM), Base(Base) {}
  void finalize(std::function<void(Expected<FinalizedAlloc>)> OnFinalized) override {
    MM.Allocations[Base].finalized = true;
    OnFinalized(FinalizedAlloc{Base});
  }
  void abandon(std::function<void(Error)> OnAbandoned) override {
    MM.Allocations.erase(Base);
    OnAbandoned(Error::success());
  }

private:
  SlabMemoryManager &MM;
  Addr Base;
};

SlabMemoryManager::SlabMemoryManager(Addr Base, uint64_t PageSize, uint64_t SlabSize)
    : Base(Base), Next(Base), PageSize(PageSize ? PageSize : 4096), SlabSize(SlabSize) {}

void SlabMemoryManager::allocate(const void *, LinkGraph &G, OnAllocatedFn OnAllocated) {
  BasicLayout Layout(G);
  auto Measured = Layout.pageAlignedSize(PageSize);
  if (!Measured)
    return OnAllocated(Measured.takeError());
  uint64_t Size = *Measured;
  if (Size > SlabSize - (Next - Base))
    return OnAllocated(makeError(formatv("%s: slab exhausted: need %s bytes, %s of %s left", G.name().c_str(),
                                         hex(Size).c_str(), hex(SlabSize - (Next - Base)).c_str(),
                                         hex(SlabSize).c_str())));
  Addr AllocBase = Next;
  Next += Size;
  Allocation &A = Allocations[AllocBase];
  A.memory.assign(Size, 0);
  Layout.placeSegments(AllocBase, PageSize);
  for (auto &[Prot, Seg] : Layout.segments()) {
    Seg.workingMem = A.memory.data() + (Seg.address - AllocBase);
    A.segments.push_back({Seg.address, Seg.contentSize + Seg.zeroFillSize, Prot});
  }
  if (Error E = Layout.apply()) {
    // Nothing of it was handed out: the slab space and the record go back.
    Allocations.erase(AllocBase);
    Next = AllocBase;
    return OnAllocated(std::move(E));
  }
  OnAllocated(std::unique_ptr<InFlightAlloc>(new InFlight(*this, AllocBase)));
}

void SlabMemoryManager::deallocate(std::vector<FinalizedAlloc> Allocs, std::function<void(Error)> OnDeallocated) {
  for (auto &F : Allocs)
    Allocations.erase(F.address);
  OnDeallocated(Error::success());
}

Expected<std::span<const char>> SlabMemoryManager::read(Addr At, uint64_t Size) const {
  auto It = Allocations.upper_bound(At);
  if (It != Allocations.begin()) {
    --It;
    const Allocation &A = It->second;
    uint64_t Off = At - It->first;
    if (A.finalized && Off <= A.memory.size() && Size <= A.memory.size() - Off)
      return std::span<const char>(A.memory.data() + Off, Size);
  }
  return makeError(formatv("no linked memory at %s (reading %llu bytes)", hex(At).c_str(), (unsigned long long)Size));
}

std::vector<SegmentRecord> SlabMemoryManager::segments() const {
  std::vector<SegmentRecord> Out;
  for (auto &[Base, A] : Allocations)
    Out.insert(Out.end(), A.segments.begin(), A.segments.end());
  return Out;
}

} // namespace linklab
