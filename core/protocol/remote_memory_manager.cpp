#include "protocol/remote_memory_manager.h"

namespace linklab::executor {

namespace {

// A piece costs 20 bytes on the wire (address, length, zero-fill): shorter
// runs of zeros stay in the content.
constexpr size_t MinZeroRun = 32;

// Bytes at At as pieces, split at runs of MinZeroRun or more zeros (and at
// the zeros that end them), which become the pieces' zero-fill.
void addPieces(Addr At, const std::vector<uint8_t> &Bytes, std::vector<WritePiece> &Out) {
  size_t Start = 0, N = Bytes.size();
  for (size_t I = 0; I < N;) {
    if (Bytes[I]) {
      ++I;
      continue;
    }
    size_t End = I;
    while (End < N && !Bytes[End])
      ++End;
    if (End - I >= MinZeroRun || End == N) {
      Out.push_back({At + Start, std::vector<uint8_t>(Bytes.begin() + Start, Bytes.begin() + I), End - I});
      Start = End;
    }
    I = End;
  }
  if (Start < N)
    Out.push_back({At + Start, std::vector<uint8_t>(Bytes.begin() + Start, Bytes.end()), 0});
}

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

  // The graph's segments go out in one write frame, their longer runs of
  // zeros as zero-fill, and the graph counts as finalized at once: the
  // executor serves requests in order, so whatever runs next finds them
  // written, and a failure is the next run's to report (unchecked). A link
  // then waits for no round trip: its link-end tables go out with the
  // graphs, and the run with them.
  void finalize(std::function<void(Expected<FinalizedAlloc>)> OnFinalized) override {
    if (auto Why = MM.refusal(Id))
      return OnFinalized(makeError(*Why));
    std::vector<WritePiece> Pieces;
    size_t I = 0;
    for (auto &[Prot, Seg] : Layout->segments())
      addPieces(Seg.address, Working[I++], Pieces);
    Working.clear(); // fixed up and copied: ours no more
    if (!Pieces.empty()) {
      Addr At = Pieces.front().address;
      C.write(std::move(Pieces), C.unchecked(formatv("finalizing segments at %s", hex(At).c_str())));
    }
    OnFinalized(FinalizedAlloc{Id});
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

void RemoteMemoryManager::allocate(const void *Dylib, LinkGraph &G, OnAllocatedFn OnAllocated) {
  auto L = std::make_shared<BasicLayout>(G);
  // A segment whose size wraps 64 bits (a huge common symbol) is refused
  // before any reservation arithmetic sees it.
  if (auto Measured = L->pageAlignedSize(Layout.pageSize()); !Measured)
    return OnAllocated(Measured.takeError());
  std::string Context = "graph " + G.name() + ": reserving executor memory";
  for (const ProcessLayout::Reservation &R : Layout.needs(Dylib, *L)) {
    // Each reservation is mapped with its protections at once (reserve, then
    // one finalize); content follows in the graph's own finalize.
    auto At = std::make_shared<Addr>(0); // known when the answers come
    auto Failed = [this, At, Context, Report = C.unchecked()](Error E) {
      if (E && !Refused.count(*At)) {
        Refused[*At] = std::move(E).withContext(Context).message();
        Report(makeError(Refused[*At]));
      } else {
        consumeError(std::move(E));
      }
    };
    auto Base = C.reserveNow(R.size, R.alignment, R.arena ? Region::Runtime : Region::Objects, Failed);
    if (!Base)
      return OnAllocated(Base.takeError().withContext(Context));
    Addr B = *At = *Base;
    std::vector<SegmentWrite> Ranges;
    for (const ProcessLayout::Piece &P : R.pieces)
      Ranges.push_back({B + P.offset, uint8_t(P.prot), {}, P.size});
    C.finalize(std::move(Ranges), Failed);
    Layout.reserved(R, B);
  }
  uint64_t Id = Layout.place(Dylib, *L);
  auto Alloc = std::make_unique<RemoteAlloc>(C, *this, std::move(L), Id);
  if (Error E = Alloc->layOut()) {
    handBack({Id}, [](Error) {}); // the layout error is what matters
    return OnAllocated(std::move(E));
  }
  OnAllocated(std::unique_ptr<InFlightAlloc>(std::move(Alloc)));
}

std::optional<std::string> RemoteMemoryManager::refusal(uint64_t Id) const {
  for (Addr B : Layout.reservationsOf(Id))
    if (auto It = Refused.find(B); It != Refused.end())
      return It->second;
  return std::nullopt;
}

void RemoteMemoryManager::handBack(std::vector<uint64_t> Ids, std::function<void(Error)> Done) {
  std::vector<Addr> Empty = Layout.release(Ids);
  for (Addr B : Empty)
    Refused.erase(B);
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
