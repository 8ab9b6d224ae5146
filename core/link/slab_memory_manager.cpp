#include "link/slab_memory_manager.h"

#include <algorithm>

namespace linklab {

// What a packed slab carves for a protection at a time (more for a larger
// segment): a sixteenth of the slab, at most 64 MiB.
constexpr uint64_t MaxArenaSize = 64 << 20, ArenasPerSlab = 16;

class SlabMemoryManager::InFlight : public InFlightAlloc {
public:
  InFlight(SlabMemoryManager &MM, uint64_t Id) : MM(MM), Id(Id) {}
  void finalize(std::function<void(Expected<FinalizedAlloc>)> OnFinalized) override {
    MM.Allocations[Id].finalized = true;
    OnFinalized(FinalizedAlloc{Id});
  }
  void abandon(std::function<void(Error)> OnAbandoned) override {
    MM.release(Id);
    OnAbandoned(Error::success());
  }

private:
  SlabMemoryManager &MM;
  uint64_t Id;
};

static Error hostMemoryError(const LinkGraph &G, uint64_t Size) {
  return makeError(formatv("%s: cannot allocate %s bytes of host memory for its segments", G.name().c_str(),
                           hex(Size).c_str()));
}

SlabMemoryManager::SlabMemoryManager(Addr Base, uint64_t PageSize, uint64_t SlabSize)
    : Base(Base), Next(Base), PageSize(PageSize ? PageSize : 4096), SlabSize(SlabSize) {}

Expected<Addr> SlabMemoryManager::take(const LinkGraph &G, uint64_t Size) {
  if (Size > SlabSize - (Next - Base))
    return makeError(formatv("%s: slab exhausted: need %s bytes, %s of %s left", G.name().c_str(), hex(Size).c_str(),
                             hex(SlabSize - (Next - Base)).c_str(), hex(SlabSize).c_str()));
  Addr A = Next;
  Next += Size;
  return A;
}

void SlabMemoryManager::allocate(const void *, LinkGraph &G, OnAllocatedFn OnAllocated) {
  BasicLayout Layout(G);
  auto Measured = Layout.pageAlignedSize(PageSize);
  if (!Measured)
    return OnAllocated(Measured.takeError());
  uint64_t Id = NextId++;
  Allocation &A = Allocations[Id];
  auto AddChunk = [&](Addr At, uint64_t Size) -> char * {
    if (!Size) // nothing to read there; another graph's chunk may start at At
      return nullptr;
    A.chunks.push_back(At);
    Chunk &C = Chunks[At];
    C.memory.reset(static_cast<char *>(std::calloc(Size, 1)));
    C.size = C.memory ? Size : 0;
    C.allocation = Id;
    return C.memory.get();
  };
  if (!Packed) {
    Addr NextBefore = Next;
    auto AllocBase = take(G, *Measured);
    if (!AllocBase) {
      Allocations.erase(Id);
      return OnAllocated(AllocBase.takeError());
    }
    char *Memory = AddChunk(*AllocBase, *Measured);
    if (!Memory && *Measured) {
      release(Id);
      Next = NextBefore;
      return OnAllocated(hostMemoryError(G, *Measured));
    }
    Layout.placeSegments(*AllocBase, PageSize);
    for (auto &[Prot, Seg] : Layout.segments()) {
      Seg.workingMem = Memory + (Seg.address - *AllocBase);
      A.segments.push_back({Seg.address, Seg.contentSize + Seg.zeroFillSize, Prot});
    }
    if (Error E = Layout.apply()) {
      // Nothing of it was handed out: the slab space and the record go back.
      release(Id);
      Next = NextBefore;
      return OnAllocated(std::move(E));
    }
    return OnAllocated(std::unique_ptr<InFlightAlloc>(new InFlight(*this, Id)));
  }
  for (auto &[Prot, Seg] : Layout.segments()) {
    uint64_t Size = Seg.contentSize + Seg.zeroFillSize;
    if (!Size)
      continue;
    // Plain copies: clang 14 (Emscripten) cannot capture a structured binding.
    MemProt P = Prot;
    uint64_t Align = Seg.alignment;
    auto Fits = [P, Align, Size](const Arena &R) {
      return R.prot == P && alignTo(R.base + R.used, Align) + Size <= R.base + R.size;
    };
    auto R = std::find_if(Arenas.rbegin(), Arenas.rend(), Fits);
    if (R == Arenas.rend()) { // a new arena, or what the slab has left if that is enough
      uint64_t Need = alignTo(Size + Seg.alignment, PageSize);
      uint64_t Want = alignTo(std::min(MaxArenaSize, SlabSize / ArenasPerSlab), PageSize);
      auto At = take(G, std::max(Need, std::min(Want, SlabSize - (Next - Base))));
      if (!At) {
        release(Id);
        return OnAllocated(At.takeError());
      }
      Arenas.push_back({*At, Next - *At, 0, Prot});
      R = Arenas.rbegin();
    }
    Seg.address = alignTo(R->base + R->used, Seg.alignment);
    R->used = Seg.address - R->base + Size;
    Seg.workingMem = AddChunk(Seg.address, Size);
    if (!Seg.workingMem) {
      release(Id);
      return OnAllocated(hostMemoryError(G, Size));
    }
    A.segments.push_back({Seg.address, Size, Prot});
  }
  if (Error E = Layout.apply()) {
    release(Id);
    return OnAllocated(std::move(E));
  }
  OnAllocated(std::unique_ptr<InFlightAlloc>(new InFlight(*this, Id)));
}

void SlabMemoryManager::release(uint64_t Id) {
  auto It = Allocations.find(Id);
  if (It == Allocations.end())
    return;
  for (Addr C : It->second.chunks)
    Chunks.erase(C);
  Allocations.erase(It);
}

void SlabMemoryManager::deallocate(std::vector<FinalizedAlloc> Allocs, std::function<void(Error)> OnDeallocated) {
  for (auto &F : Allocs)
    release(F.address);
  OnDeallocated(Error::success());
}

Expected<std::span<const char>> SlabMemoryManager::read(Addr At, uint64_t Size) const {
  auto It = Chunks.upper_bound(At);
  if (It != Chunks.begin()) {
    --It;
    const Chunk &C = It->second;
    uint64_t Off = At - It->first;
    auto A = Allocations.find(C.allocation);
    if (A != Allocations.end() && A->second.finalized && Off <= C.size && Size <= C.size - Off)
      return std::span<const char>(C.memory.get() + Off, Size);
  }
  return makeError(formatv("no linked memory at %s (reading %llu bytes)", hex(At).c_str(), (unsigned long long)Size));
}

std::vector<SegmentRecord> SlabMemoryManager::segments() const {
  std::vector<SegmentRecord> Out;
  for (auto &[Id, A] : Allocations)
    Out.insert(Out.end(), A.segments.begin(), A.segments.end());
  std::sort(Out.begin(), Out.end(), [](auto &L, auto &R) { return L.address < R.address; });
  return Out;
}

} // namespace linklab
