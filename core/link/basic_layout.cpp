#include "link/memory_manager.h"

#include <algorithm>

namespace linklab {

// The padding that puts Offset at AlignOfs modulo Align.
static uint64_t alignedOffset(uint64_t Offset, uint64_t Align, uint64_t AlignOfs) {
  uint64_t Rem = (Offset + Align - AlignOfs % Align) % Align;
  return Rem ? Offset + (Align - Rem) : Offset;
}

BasicLayout::BasicLayout(LinkGraph &Graph) : G(Graph) {
  for (auto &S : G.sections()) {
    if (S->lifetime == MemLifetime::NoAlloc || S->blocks.empty())
      continue;
    Segment &Seg = Segments[S->prot];
    Seg.prot = S->prot;
    for (Block *B : S->blocks)
      (B->isZeroFill() ? Seg.zeroFillBlocks : Seg.contentBlocks).push_back(B);
  }
  auto Order = [](const Block *L, const Block *R) {
    if (L->section->ordinal != R->section->ordinal)
      return L->section->ordinal < R->section->ordinal;
    if (L->address != R->address)
      return L->address < R->address;
    // JITLink's order; it leaves blocks of one size in hash order, we in creation order.
    if (L->size != R->size)
      return L->size < R->size;
    return L->ordinal < R->ordinal;
  };
  for (auto &Entry : Segments) {
    Segment &Seg = Entry.second; // a named reference: clang 14 (emcc) cannot capture a structured binding
    // Blocks split from one section (an object's .eh_frame) arrive in order.
    for (auto *Blocks : {&Seg.contentBlocks, &Seg.zeroFillBlocks})
      if (!std::is_sorted(Blocks->begin(), Blocks->end(), Order))
        std::sort(Blocks->begin(), Blocks->end(), Order);
    uint64_t Offset = 0;
    // A malformed object can name sizes whose sum wraps around (a common
    // symbol of 2^64-1 bytes): the first such block is reported, not laid out.
    auto Place = [&](Block *B) {
      uint64_t Start = alignedOffset(Offset, B->alignment, B->alignmentOffset);
      if (Start < Offset || Start + B->size < Start)
        TooLarge = TooLarge ? TooLarge : B;
      Offset = Start + B->size;
      Seg.alignment = std::max(Seg.alignment, B->alignment);
    };
    std::for_each(Seg.contentBlocks.begin(), Seg.contentBlocks.end(), Place);
    Seg.contentSize = Offset;
    std::for_each(Seg.zeroFillBlocks.begin(), Seg.zeroFillBlocks.end(), Place);
    Seg.zeroFillSize = Offset - Seg.contentSize;
  }
}

Expected<uint64_t> BasicLayout::pageAlignedSize(uint64_t PageSize) const {
  uint64_t Total = 0;
  for (auto &[Prot, Seg] : Segments) {
    uint64_t Size = alignTo(Seg.contentSize + Seg.zeroFillSize, PageSize);
    if (TooLarge || Size < Seg.contentSize + Seg.zeroFillSize || Total + Size < Total) {
      const Block *B = TooLarge                    ? TooLarge
                       : Seg.contentBlocks.empty() ? Seg.zeroFillBlocks.back()
                                                   : Seg.contentBlocks.back();
      return makeError(formatv("%s: section %s: a block of %s bytes at alignment %s makes the graph larger than "
                               "the address space",
                               G.name().c_str(), std::string(B->section->name).c_str(), hex(B->size).c_str(),
                               hex(B->alignment).c_str()));
    }
    Total += Size;
  }
  return Total;
}

void BasicLayout::placeSegments(Addr Base, uint64_t PageSize) {
  PlacedPageSize = PageSize;
  for (auto &[Prot, Seg] : Segments) {
    Seg.address = Base;
    Base += alignTo(Seg.contentSize + Seg.zeroFillSize, PageSize);
  }
}

Error BasicLayout::apply() {
  for (auto &[Prot, Seg] : Segments) {
    uint64_t Measured = Seg.contentSize + Seg.zeroFillSize;
    // Offsets from the segment's address that put a block at its alignment.
    auto StartOf = [&, &Seg = Seg](uint64_t Offset, const Block *B) {
      return alignedOffset(Seg.address + Offset, B->alignment, B->alignmentOffset) - Seg.address;
    };
    uint64_t End = 0;
    for (Block *B : Seg.contentBlocks)
      End = StartOf(End, B) + B->size;
    uint64_t ContentEnd = End;
    for (Block *B : Seg.zeroFillBlocks)
      End = StartOf(End, B) + B->size;
    if (End > Measured) { // only at an address the segment's alignment does not divide
      uint64_t Room = PlacedPageSize ? alignTo(Measured, PlacedPageSize) : Measured;
      if (End > Room)
        return makeError(formatv("graph %s: segment %s at %s is not aligned to %llu, and its blocks aligned on their "
                                 "addresses need %s bytes, more than the %s it has",
                                 G.name().c_str(), protString(Prot).c_str(), hex(Seg.address).c_str(),
                                 (unsigned long long)Seg.alignment, hex(End).c_str(), hex(Room).c_str()));
      Seg.contentSize = ContentEnd;
      Seg.zeroFillSize = End - ContentEnd;
    }
    uint64_t Offset = 0;
    for (Block *B : Seg.contentBlocks) {
      uint64_t Start = StartOf(Offset, B);
      // An empty block may have no bytes, in a segment with no working memory.
      if (Start > Offset)
        std::memset(Seg.workingMem + Offset, 0, Start - Offset);
      B->address = Seg.address + Start;
      if (B->size)
        std::memcpy(Seg.workingMem + Start, B->data, B->size);
      B->setMutableContent(Seg.workingMem + Start, B->size);
      Offset = Start + B->size;
    }
    // Whatever trails the last block to contentSize: every content byte is written.
    if (Seg.workingMem && Seg.contentSize > Offset)
      std::memset(Seg.workingMem + Offset, 0, Seg.contentSize - Offset);
    for (Block *B : Seg.zeroFillBlocks) {
      Offset = StartOf(Offset, B);
      B->address = Seg.address + Offset;
      Offset += B->size;
    }
  }
  return Error::success();
}

} // namespace linklab
