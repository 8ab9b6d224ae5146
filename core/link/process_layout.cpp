#include "link/process_layout.h"

#include <algorithm>

namespace linklab {

const ProcessLayout::Arena *ProcessLayout::arenaFor(MemProt P, uint64_t Size, uint64_t Align) const {
  for (auto It = Arenas.rbegin(); It != Arenas.rend(); ++It)
    if (!It->own && It->prot == P)
      return alignTo(It->base + It->used, Align) + Size <= It->base + It->size ? &*It : nullptr;
  return nullptr;
}

// Each segment at its own alignment, at least a page (protection is per page).
ProcessLayout::Reservation ProcessLayout::ownReservation(BasicLayout &L) const {
  Reservation R{0, PageSize, {}, false};
  for (auto &[Prot, Seg] : L.segments()) {
    uint64_t Size = Seg.contentSize + Seg.zeroFillSize;
    if (!Size)
      continue;
    uint64_t Align = std::max(PageSize, Seg.alignment);
    uint64_t At = alignTo(R.size, Align);
    R.pieces.push_back({At, alignTo(Size, PageSize), Prot});
    R.size = At + alignTo(Size, PageSize);
    R.alignment = std::max(R.alignment, Align);
  }
  return R;
}

std::vector<ProcessLayout::Reservation> ProcessLayout::needs(const void *Dylib, BasicLayout &L) const {
  std::vector<Reservation> Out;
  if (Dylib != &ProcessDylib) {
    if (Reservation R = ownReservation(L); R.size && !Own)
      Out.push_back(std::move(R));
    return Out;
  }
  for (auto &[Prot, Seg] : L.segments()) {
    uint64_t Size = Seg.contentSize + Seg.zeroFillSize;
    if (!Size || arenaFor(Prot, Size, Seg.alignment))
      continue;
    uint64_t ArenaBytes = std::max(ArenaSize, alignTo(Size + Seg.alignment, PageSize));
    Out.push_back({ArenaBytes, PageSize, {{0, ArenaBytes, Prot}}, true});
  }
  return Out;
}

void ProcessLayout::reserved(const Reservation &R, Addr Base) {
  if (R.arena)
    return Arenas.push_back({Base, R.size, 0, R.pieces.front().prot, 0, false});
  Arenas.push_back({Base, R.size, R.size, MemProt::None, 0, true});
  Own = Base;
}

uint64_t ProcessLayout::place(const void *Dylib, BasicLayout &L) {
  uint64_t Id = NextId++;
  std::vector<Addr> &Used = Allocs[Id];
  if (Dylib != &ProcessDylib) {
    Reservation R = ownReservation(L);
    if (!R.size || !Own)
      return Id;
    size_t I = 0;
    for (auto &[Prot, Seg] : L.segments())
      if (Seg.contentSize + Seg.zeroFillSize)
        Seg.address = *Own + R.pieces[I++].offset;
    for (Arena &A : Arenas)
      if (A.base == *Own)
        ++A.live;
    Used.push_back(*Own);
    Own.reset();
    return Id;
  }
  for (auto &[Prot, Seg] : L.segments()) {
    uint64_t Size = Seg.contentSize + Seg.zeroFillSize;
    if (!Size)
      continue;
    Arena &A = const_cast<Arena &>(*arenaFor(Prot, Size, Seg.alignment)); // needs() was met
    Seg.address = alignTo(A.base + A.used, Seg.alignment);
    A.used = Seg.address - A.base + Size;
    ++A.live;
    Used.push_back(A.base);
  }
  return Id;
}

const std::vector<Addr> &ProcessLayout::reservationsOf(uint64_t Id) const {
  static const std::vector<Addr> None;
  auto It = Allocs.find(Id);
  return It == Allocs.end() ? None : It->second;
}

std::vector<Addr> ProcessLayout::release(const std::vector<uint64_t> &Ids) {
  std::vector<Addr> Empty;
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
  return Empty;
}

} // namespace linklab
