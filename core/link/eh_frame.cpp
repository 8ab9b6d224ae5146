#include "link/eh_frame.h"

#include <algorithm>
#include <map>

namespace linklab {

static Error ehError(LinkGraph &G, uint64_t Offset, const std::string &Msg) {
  return makeError(formatv("%s: .eh_frame+%s: %s", G.name().c_str(), hex(Offset).c_str(), Msg.c_str()));
}

Error splitEHFrame(LinkGraph &G, const EhFrameKinds &Kinds) {
  Section *Sec = G.findSectionByName(".eh_frame");
  if (!Sec || Sec->blocks.empty())
    return Error::success();
  if (Sec->blocks.size() != 1)
    return makeError(G.name() + ": .eh_frame: expected one block before splitting");
  Block *Rest = Sec->blocks.front();
  if (Rest->isZeroFill())
    return makeError(G.name() + ": .eh_frame: section has no content");

  // Find the record boundaries: [length:4][id/CIE-pointer:4][...].
  auto C = Rest->content();
  if (C.empty())
    return Error::success();
  std::vector<uint64_t> Starts;
  for (uint64_t Offset = 0; Offset < C.size();) {
    if (C.size() - Offset < 4)
      return ehError(G, Offset, "truncated record length");
    uint32_t Len = readLE<uint32_t>(C.data() + Offset);
    if (Len == 0xffffffff)
      return ehError(G, Offset, "64-bit DWARF .eh_frame records are not supported");
    if (4 + uint64_t(Len) > C.size() - Offset)
      return ehError(G, Offset, formatv("record length %s runs past the end of the section", hex(Len).c_str()));
    if (Offset)
      Starts.push_back(Offset);
    Offset += 4 + uint64_t(Len);
  }
  // Each record, with a symbol covering it for the edges that point at it.
  struct Record {
    uint64_t offset; // in the original section
    Block *block;
    Symbol *start;
  };
  std::vector<Record> Records;
  std::vector<Block *> Pieces = G.splitBlock(*Rest, Starts);
  for (size_t I = 0; I < Pieces.size(); ++I)
    Records.push_back({I ? Starts[I - 1] : 0, Pieces[I], &G.addAnonymousSymbol(*Pieces[I], 0, Pieces[I]->size, false, false)});
  std::map<uint64_t, Symbol *> CIEs; // by original offset
  for (auto &[RecOffset, B, Start] : Records) {
    if (B->size == 4) // an existing terminator
      continue;
    if (B->size < 8)
      return ehError(G, RecOffset, "record too small for its CIE id");
    uint32_t CIEPtr = readLE<uint32_t>(B->content().data() + 4);
    if (CIEPtr == 0) {
      CIEs[RecOffset] = Start;
      continue;
    }
    // FDE: the CIE pointer is the distance back from this field to the CIE.
    uint64_t CIEOffset = RecOffset + 4 - CIEPtr;
    auto CIE = CIEs.find(CIEOffset);
    if (CIE == CIEs.end())
      return ehError(G, RecOffset, formatv("FDE's CIE pointer %s names no CIE", hex(CIEPtr).c_str()));
    bool HasCIEEdge = std::any_of(B->edges.begin(), B->edges.end(), [](const Edge &E) { return E.offset == 4; });
    if (!HasCIEEdge)
      B->addEdge(Kinds.negDelta32, 4, *CIE->second, 0);
    // PC begin follows at offset 8; its relocation names the function.
    for (const Edge &E : B->edges) {
      if (E.offset != 8)
        continue;
      Symbol &Fn = *E.target;
      if (Fn.isDefined()) {
        Block &FnBlock = Fn.block();
        FnBlock.addEdge(edge::KeepAlive, 0, *Start, 0);
      }
      break;
    }
  }
  // Unwinders stop at a zero-length record; objects do not carry one.
  static const char Terminator[4] = {};
  const Block &Last = *Records.back().block;
  Block &Null = G.createContentBlock(*Sec, {Terminator, 4}, Last.address + Last.size, 1, 0);
  G.addAnonymousSymbol(Null, 0, 4, false, true);
  return Error::success();
}

} // namespace linklab
