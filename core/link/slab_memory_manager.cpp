#include "link/slab_memory_manager.h"

#include <algorithm>
#include <cstring>

namespace linklab {

const char ProcessDylib = 0;

// The process region's size, and what it carves for a protection at a time
// (more for a larger segment).
constexpr uint64_t ProcessSize = uint64_t(1) << 30, ArenaSize = 16 << 20;

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
  return makeError(
      formatv("%s: cannot allocate %s bytes of host memory for its segments", G.name().c_str(), hex(Size).c_str()));
}

// The slab is mapped in whole pages, as llvm-jitlink's is (its slab comes
// from mmap), so a slab smaller than a page holds a page.
static uint64_t slabPages(uint64_t SlabSize, uint64_t PageSize) {
  uint64_t Rest = SlabSize % PageSize;
  return Rest && SlabSize <= ~uint64_t(0) - (PageSize - Rest) ? SlabSize + (PageSize - Rest) : SlabSize;
}

SlabMemoryManager::SlabMemoryManager(Addr Base, uint64_t PageSize, uint64_t SlabSize)
    : PageSize(PageSize ? PageSize : 4096), Slab{Base, Base, slabPages(SlabSize, this->PageSize), "slab"} {
  SlabSize = Slab.size;
  Addr End = Base + std::min(SlabSize, ~Base); // the slab may end at the top of the address space
  Addr ProcessBase = alignTo(End, this->PageSize);
  Process = {ProcessBase, ProcessBase, ProcessBase < End ? 0 : std::min(ProcessSize, ~ProcessBase),
             "C runtime's region after the slab"};
}

SlabMemoryManager::SlabMemoryManager(uint64_t PageSize, ReserveFn Reserve)
    : PageSize(PageSize), Slab{0, 0, 0, "slab"}, Process{0, 0, 0, "C runtime's region"}, Reserve(std::move(Reserve)),
      AsRun(std::in_place, PageSize) {}

Expected<Addr> SlabMemoryManager::take(Region &R, const LinkGraph &G, uint64_t Size) {
  if (Size > R.size - (R.next - R.base))
    return makeError(formatv("%s: %s exhausted: need %s bytes, %s of %s left", G.name().c_str(), R.what,
                             hex(Size).c_str(), hex(R.size - (R.next - R.base)).c_str(), hex(R.size).c_str()));
  Addr A = R.next;
  R.next += Size;
  return A;
}

char *SlabMemoryManager::addChunk(uint64_t Id, Addr At, uint64_t Size) {
  if (!Size) // nothing to read there; another graph's chunk may start at At
    return nullptr;
  Allocations[Id].chunks.push_back(At);
  Chunk &C = Chunks[At];
  // Not calloc: apply() writes most of it (zeroUnwritten does the rest),
  // and Emscripten's dlmalloc clears all of a calloc, fresh memory included.
  C.memory.reset(static_cast<char *>(std::malloc(Size)));
  C.size = C.memory ? Size : 0;
  C.allocation = Id;
  return C.memory.get();
}

// apply() writes each segment's [address, address + contentSize); the
// rest of a chunk (zero-fill, padding between and after segments) reads as
// zero, as fresh pages do.
void SlabMemoryManager::zeroUnwritten(uint64_t Id, BasicLayout &Layout) {
  std::vector<std::pair<Addr, Addr>> Written;
  for (auto &[Prot, Seg] : Layout.segments())
    if (Seg.contentSize)
      Written.push_back({Seg.address, Seg.address + Seg.contentSize});
  std::sort(Written.begin(), Written.end());
  for (Addr At : Allocations[Id].chunks) {
    Chunk &C = Chunks[At];
    Addr End = At + C.size, Next = At;
    for (auto [Begin, Stop] : Written) {
      Begin = std::clamp(Begin, At, End);
      if (Begin > Next)
        std::memset(C.memory.get() + (Next - At), 0, Begin - Next);
      Next = std::max(Next, std::clamp(Stop, At, End));
    }
    if (End > Next)
      std::memset(C.memory.get() + (Next - At), 0, End - Next);
  }
}

void SlabMemoryManager::allocate(const void *Dylib, LinkGraph &G, OnAllocatedFn OnAllocated) {
  BasicLayout Layout(G);
  auto Measured = Layout.pageAlignedSize(PageSize);
  if (!Measured)
    return OnAllocated(Measured.takeError());
  uint64_t Id = NextId++;
  Allocation &A = Allocations[Id];
  if (AsRun)
    return allocateAsRun(Dylib, G, Layout, Id, OnAllocated);
  if (Dylib == &ProcessDylib)
    return allocatePacked(G, Layout, Id, OnAllocated);
  Addr NextBefore = Slab.next;
  auto AllocBase = take(Slab, G, *Measured);
  if (!AllocBase) {
    Allocations.erase(Id);
    return OnAllocated(AllocBase.takeError());
  }
  char *Memory = addChunk(Id, *AllocBase, *Measured);
  if (!Memory && *Measured) {
    release(Id);
    Slab.next = NextBefore;
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
    Slab.next = NextBefore;
    return OnAllocated(std::move(E));
  }
  zeroUnwritten(Id, Layout);
  OnAllocated(std::unique_ptr<InFlightAlloc>(new InFlight(*this, Id)));
}

// A 32-bit target's runtime must lie below 4 GiB, where its pointers reach:
// before anything is packed, the region after the slab is cut at 4 GiB, or
// moves below the slab when there is more room there (a slab near the top,
// as LLVM's i386 tests put theirs at 0xfff00000).
void SlabMemoryManager::fitProcessRegion(unsigned PointerSize) {
  if (PointerSize != 4 || Process.next != Process.base)
    return;
  constexpr uint64_t Limit = uint64_t(1) << 32;
  uint64_t SlabEnd = Slab.base + Slab.size;
  uint64_t AfterBase = alignTo(SlabEnd, PageSize);
  uint64_t After = AfterBase < Limit && SlabEnd >= Slab.base ? Limit - AfterBase : 0;
  uint64_t BelowEnd = Slab.base / PageSize * PageSize;
  uint64_t Below = BelowEnd > PageSize ? BelowEnd - PageSize : 0; // not page 0
  if (After >= std::min(Below, ProcessSize))
    Process = {AfterBase, AfterBase, std::min(After, ProcessSize), Process.what};
  else {
    uint64_t Size = std::min(Below, ProcessSize);
    Process = {BelowEnd - Size, BelowEnd - Size, Size, "C runtime's region before the slab"};
  }
}

void SlabMemoryManager::allocatePacked(LinkGraph &G, BasicLayout &Layout, uint64_t Id, OnAllocatedFn &OnAllocated) {
  fitProcessRegion(G.pointerSize());
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
    if (R == Arenas.rend()) { // a new arena, or what the region has left if that is enough
      uint64_t Need = alignTo(Size + Seg.alignment, PageSize);
      uint64_t Left = Process.size - (Process.next - Process.base);
      auto At = take(Process, G, std::max(Need, std::min(ArenaSize, Left)));
      if (!At) {
        release(Id);
        return OnAllocated(At.takeError());
      }
      Arenas.push_back({*At, Process.next - *At, 0, Prot});
      R = Arenas.rbegin();
    }
    Seg.address = alignTo(R->base + R->used, Seg.alignment);
    R->used = Seg.address - R->base + Size;
  }
  commit(G, Layout, Id, OnAllocated);
}

// As RemoteMemoryManager::pump, with reservations made at once.
void SlabMemoryManager::allocateAsRun(const void *Dylib, LinkGraph &G, BasicLayout &Layout, uint64_t Id,
                                      OnAllocatedFn &OnAllocated) {
  for (const ProcessLayout::Reservation &R : AsRun->needs(Dylib, Layout)) {
    auto Base = Reserve(R.size, R.alignment, R.arena);
    if (!Base) {
      release(Id);
      return OnAllocated(Base.takeError().withContext("graph " + G.name() + ": reserving executor memory"));
    }
    AsRun->reserved(R, *Base);
  }
  Allocations[Id].placed = AsRun->place(Dylib, Layout);
  commit(G, Layout, Id, OnAllocated);
}

void SlabMemoryManager::commit(LinkGraph &G, BasicLayout &Layout, uint64_t Id, OnAllocatedFn &OnAllocated) {
  for (auto &[Prot, Seg] : Layout.segments()) {
    uint64_t Size = Seg.contentSize + Seg.zeroFillSize;
    if (!Size)
      continue;
    Seg.workingMem = addChunk(Id, Seg.address, Size);
    if (!Seg.workingMem) {
      release(Id);
      return OnAllocated(hostMemoryError(G, Size));
    }
    Allocations[Id].segments.push_back({Seg.address, Size, Prot});
  }
  if (Error E = Layout.apply()) {
    release(Id);
    return OnAllocated(std::move(E));
  }
  zeroUnwritten(Id, Layout);
  OnAllocated(std::unique_ptr<InFlightAlloc>(new InFlight(*this, Id)));
}

void SlabMemoryManager::release(uint64_t Id) {
  auto It = Allocations.find(Id);
  if (It == Allocations.end())
    return;
  if (AsRun && It->second.placed)
    AsRun->release({It->second.placed});
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
