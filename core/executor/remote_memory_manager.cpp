#include "executor/remote_memory_manager.h"

namespace linklab::executor {

namespace {

class RemoteAlloc : public InFlightAlloc {
public:
  RemoteAlloc(ExecutorClient &C, std::shared_ptr<BasicLayout> L, uint64_t Base)
      : C(C), Layout(std::move(L)), Base(Base) {}

  // Gives segments addresses inside the reservation and working memory
  // here; content is copied in and fixed up locally, then shipped.
  Error layOut(uint64_t PageSize) {
    Layout->placeSegments(Base, PageSize);
    for (auto &[Prot, Seg] : Layout->segments()) {
      Working.emplace_back(Seg.contentSize);
      Seg.workingMem = reinterpret_cast<char *>(Working.back().data());
    }
    return Layout->apply();
  }

  void finalize(std::function<void(Expected<FinalizedAlloc>)> OnFinalized) override {
    std::vector<SegmentWrite> Segs;
    size_t I = 0;
    for (auto &[Prot, Seg] : Layout->segments()) {
      std::vector<uint8_t> &W = Working[I++];
      if (Seg.contentSize + Seg.zeroFillSize == 0)
        continue;
      Segs.push_back({Seg.address, uint8_t(Prot), std::move(W), Seg.zeroFillSize}); // fixed up: ours no more
    }
    uint64_t B = Base;
    C.finalize(std::move(Segs), [B, OnFinalized = std::move(OnFinalized)](Error E) {
      if (E)
        return OnFinalized(std::move(E).withContext(formatv("finalizing allocation at %s", hex(B).c_str())));
      OnFinalized(FinalizedAlloc{B});
    });
  }

  void abandon(std::function<void(Error)> OnAbandoned) override { C.deallocate({Base}, std::move(OnAbandoned)); }

private:
  ExecutorClient &C;
  std::shared_ptr<BasicLayout> Layout;
  uint64_t Base;
  std::vector<std::vector<uint8_t>> Working; // one per segment, in segment order
};

} // namespace

void RemoteMemoryManager::allocate(const void *, LinkGraph &G, OnAllocatedFn OnAllocated) {
  auto Layout = std::make_shared<BasicLayout>(G);
  auto Measured = Layout->pageAlignedSize(PageSize);
  if (!Measured)
    return OnAllocated(Measured.takeError());
  uint64_t Size = *Measured;
  uint64_t Align = PageSize;
  for (auto &[Prot, Seg] : Layout->segments())
    Align = std::max(Align, Seg.alignment);
  if (Size == 0) // nothing allocatable: still one page, so the alloc has a name
    Size = PageSize;
  ExecutorClient &Client = C;
  uint64_t Page = PageSize;
  std::string Name = G.name();
  C.reserve(Size, Align,
            [&Client, Page, Name, Layout = std::move(Layout),
             OnAllocated = std::move(OnAllocated)](Expected<uint64_t> Base) mutable {
              if (!Base)
                return OnAllocated(Base.takeError().withContext("graph " + Name + ": reserving executor memory"));
              auto A = std::make_unique<RemoteAlloc>(Client, std::move(Layout), *Base);
              if (Error E = A->layOut(Page)) {
                // Hand the reservation back; the layout error is what matters.
                A->abandon([](Error) {});
                return OnAllocated(std::move(E));
              }
              OnAllocated(std::unique_ptr<InFlightAlloc>(std::move(A)));
            });
}

void RemoteMemoryManager::deallocate(std::vector<FinalizedAlloc> Allocs, std::function<void(Error)> OnDeallocated) {
  std::vector<uint64_t> Bases;
  for (const FinalizedAlloc &A : Allocs)
    Bases.push_back(A.address);
  C.deallocate(std::move(Bases), std::move(OnDeallocated));
}

} // namespace linklab::executor
