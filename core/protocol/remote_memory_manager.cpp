#include "protocol/remote_memory_manager.h"

namespace linklab::executor {

namespace {

class RemoteAlloc : public InFlightAlloc {
public:
  RemoteAlloc(ExecutorClient &C, RemoteMemoryManager &MM, std::shared_ptr<BasicLayout> L, uint64_t Id)
      : C(C), MM(MM), Layout(std::move(L)), Id(Id) {}

  // Working memory here for segments already placed; content is copied in
  // and fixed up locally, then shipped.
  Error layOut() {
    for (auto &[Prot, Seg] : Layout->segments()) {
      Working.emplace_back(Seg.contentSize);
      Seg.workingMem = reinterpret_cast<char *>(Working.back().data());
    }
    return Layout->apply();
  }

  // Every segment's write goes out at once: one round trip for the graph,
  // not one per segment (a glibc program's ~450 graphs have up to six
  // segments each, and a round trip through a browser's WebSocket bridge
  // costs milliseconds). The answer waits for all replies; the first
  // failure is the one reported.
  void finalize(std::function<void(Expected<FinalizedAlloc>)> OnFinalized) override {
    struct Pending {
      size_t left;
      std::optional<Error> failure;
      std::function<void(Expected<FinalizedAlloc>)> done;
    };
    std::vector<std::pair<Addr, std::vector<uint8_t>>> Writes;
    size_t I = 0;
    for (auto &[Prot, Seg] : Layout->segments())
      if (std::vector<uint8_t> &W = Working[I++]; !W.empty())
        Writes.push_back({Seg.address, std::move(W)}); // fixed up: ours no more
    if (Writes.empty())
      return OnFinalized(FinalizedAlloc{Id});
    auto P = std::make_shared<Pending>(Pending{Writes.size(), std::nullopt, std::move(OnFinalized)});
    for (auto &[A, Bytes] : Writes)
      C.writeMemory(A, std::move(Bytes), [P, A = A, Id = Id](Error E) {
        if (E && !P->failure)
          P->failure.emplace(std::move(E).withContext(formatv("finalizing segment at %s", hex(A).c_str())));
        if (--P->left)
          return;
        if (P->failure)
          return P->done(std::move(*P->failure));
        P->done(FinalizedAlloc{Id});
      });
  }

  void abandon(std::function<void(Error)> OnAbandoned) override { MM.handBack({Id}, std::move(OnAbandoned)); }

private:
  ExecutorClient &C;
  RemoteMemoryManager &MM;
  std::shared_ptr<BasicLayout> Layout;
  uint64_t Id;
  std::vector<std::vector<uint8_t>> Working; // one per segment, in segment order
};

} // namespace

RemoteMemoryManager::Arena *RemoteMemoryManager::arenaFor(MemProt P, uint64_t Size, uint64_t Align) {
  for (auto It = Arenas.rbegin(); It != Arenas.rend(); ++It)
    if (It->prot == P)
      return alignTo(It->base + It->used, Align) + Size <= It->base + It->size ? &*It : nullptr;
  return nullptr;
}

void RemoteMemoryManager::allocate(const void *, LinkGraph &G, OnAllocatedFn OnAllocated) {
  auto Layout = std::make_shared<BasicLayout>(G);
  // A segment whose size wraps 64 bits (a huge common symbol) is refused
  // before any arena arithmetic sees it.
  if (auto Measured = Layout->pageAlignedSize(PageSize); !Measured)
    return OnAllocated(Measured.takeError());
  Queue.push_back({std::move(Layout), G.name(), std::move(OnAllocated)});
  pump();
}

// Serves queued allocations in order; when one needs arenas that are not
// mapped yet, maps them (reserve, then one finalize giving each whole range
// its protection), all of that allocation's at once, and carries on when
// the last answers.
void RemoteMemoryManager::pump() {
  if (Pumping || Mapping)
    return;
  Pumping = true;
  while (!Queue.empty() && !Mapping) {
    Request &R = Queue.front();
    // An arena with room for every segment, or those missing (a layout has
    // one segment per protection).
    std::vector<std::pair<MemProt, uint64_t>> Missing;
    for (auto &[Prot, Seg] : R.layout->segments()) {
      uint64_t Size = Seg.contentSize + Seg.zeroFillSize;
      if (Size && !arenaFor(Prot, Size, Seg.alignment))
        Missing.push_back({Prot, std::max(ArenaSize, alignTo(Size + Seg.alignment, PageSize))});
    }
    if (!Missing.empty()) {
      Mapping = true;
      struct Pending {
        size_t left;
        std::optional<Error> failure;
      };
      auto P = std::make_shared<Pending>(Pending{Missing.size(), std::nullopt});
      auto Answered = [this, P, Name = R.name](std::optional<Error> E) {
        if (E && !P->failure)
          P->failure = std::move(E);
        else if (E)
          consumeError(std::move(*E)); // the first failure is the one reported
        if (--P->left)
          return;
        if (P->failure)
          return mappingFailed(std::move(*P->failure), Name);
        Mapping = false;
        pump();
      };
      for (auto &M : Missing)
        C.reserve(M.second, PageSize, [this, Prot = M.first, Size = M.second, Answered](Expected<uint64_t> Base) {
          if (!Base)
            return Answered(Base.takeError());
          Addr B = *Base;
          std::vector<SegmentWrite> Whole = {{B, uint8_t(Prot), {}, Size}};
          C.finalize(std::move(Whole), [this, B, Size, Prot, Answered](Error E) {
            if (E) {
              C.deallocate({B}, [](Error) {}); // best effort: the mapping error is what matters
              return Answered(std::move(E));
            }
            Arenas.push_back({B, Size, 0, Prot, 0});
            Answered(std::nullopt);
          });
        });
      break;
    }
    Request Req = std::move(Queue.front());
    Queue.pop_front();
    uint64_t Id = NextId++;
    std::vector<Addr> &Used = Allocs[Id];
    for (auto &[Prot, Seg] : Req.layout->segments()) {
      uint64_t Size = Seg.contentSize + Seg.zeroFillSize;
      if (!Size)
        continue;
      Arena *A = arenaFor(Prot, Size, Seg.alignment);
      Seg.address = alignTo(A->base + A->used, Seg.alignment);
      A->used = Seg.address - A->base + Size;
      ++A->live;
      Used.push_back(A->base);
    }
    auto Alloc = std::make_unique<RemoteAlloc>(C, *this, std::move(Req.layout), Id);
    if (Error E = Alloc->layOut()) {
      handBack({Id}, [](Error) {}); // the layout error is what matters
      Req.done(std::move(E));
      continue;
    }
    Req.done(std::unique_ptr<InFlightAlloc>(std::move(Alloc)));
  }
  Pumping = false;
}

void RemoteMemoryManager::mappingFailed(Error E, const std::string &Name) {
  Mapping = false;
  Request Lost = std::move(Queue.front());
  Queue.pop_front();
  Lost.done(std::move(E).withContext("graph " + Name + ": reserving executor memory"));
  pump();
}

void RemoteMemoryManager::handBack(std::vector<uint64_t> Ids, std::function<void(Error)> Done) {
  std::vector<uint64_t> Empty;
  for (uint64_t Id : Ids) {
    auto It = Allocs.find(Id);
    if (It == Allocs.end())
      continue;
    for (Addr Base : It->second)
      for (auto A = Arenas.begin(); A != Arenas.end(); ++A)
        if (A->base == Base) {
          if (--A->live == 0) {
            Empty.push_back(Base);
            Arenas.erase(A);
          }
          break;
        }
    Allocs.erase(It);
  }
  if (Empty.empty())
    return Done(Error::success());
  C.deallocate(std::move(Empty), std::move(Done));
}

void RemoteMemoryManager::deallocate(std::vector<FinalizedAlloc> Allocs, std::function<void(Error)> OnDeallocated) {
  std::vector<uint64_t> Ids;
  for (const FinalizedAlloc &A : Allocs)
    Ids.push_back(A.address);
  handBack(std::move(Ids), std::move(OnDeallocated));
}

} // namespace linklab::executor
