#include "link/eh_frame.h"

#include <unordered_map>

#include <algorithm>
#include <map>

namespace linklab {

static Error ehError(LinkGraph &G, const Section &Sec, uint64_t Offset, const std::string &Msg) {
  return makeError(
      formatv("%s: %s+%s: %s", G.name().c_str(), std::string(Sec.name).c_str(), hex(Offset).c_str(), Msg.c_str()));
}

// An error llvm-jitlink words as Lead ("No CIE found at address 0x..."),
// with linklab's location after it.
static Error ehError(LinkGraph &G, const Section &Sec, uint64_t Offset, const std::string &Lead,
                     const std::string &Msg) {
  return makeError(formatv("%s (%s: %s+%s: %s)", Lead.c_str(), G.name().c_str(), std::string(Sec.name).c_str(),
                           hex(Offset).c_str(), Msg.c_str()));
}

static std::string address16(Addr A) { return formatv("0x%016llx", (unsigned long long)A); }

namespace {

// A cursor over a record's bytes for the CIE fields before the augmentation data.
struct Reader {
  std::span<const char> C;
  size_t Pos;
  bool ok = true;
  uint8_t byte() { return Pos < C.size() ? uint8_t(C[Pos++]) : (ok = false, 0); }
  uint64_t uleb() {
    uint64_t V = 0;
    for (unsigned Shift = 0; ok; Shift += 7) {
      uint8_t B = byte();
      if (Shift < 64)
        V |= uint64_t(B & 0x7f) << Shift;
      if (!(B & 0x80))
        break;
    }
    return V;
  }
};

// The symbol a PC-begin address names: one defined there (a named, widest-scope
// one first), or a new anonymous symbol in the block covering it.
Symbol *symbolAt(LinkGraph &G, const Section &EH, Addr A) {
  Symbol *Best = nullptr;
  Block *Covering = nullptr;
  for (auto &S : G.sections()) {
    if (S == &EH)
      continue;
    for (Symbol *Sym : S->symbols)
      if (Sym->address() == A && (!Best || (Sym->hasName() && !Best->hasName()) ||
                                  (Sym->hasName() == Best->hasName() && Sym->scope < Best->scope)))
        Best = Sym;
    for (Block *B : S->blocks)
      if (B->address <= A && A < B->address + B->size)
        Covering = B;
  }
  if (Best)
    return Best;
  return Covering ? &G.addAnonymousSymbol(*Covering, A - Covering->address, 0, false, false) : nullptr;
}

} // namespace

Expected<uint8_t> fdePointerEncoding(std::span<const char> CIE) {
  Reader R{CIE, 8};
  uint8_t Version = R.byte();
  size_t AugStart = R.Pos;
  while (R.ok && R.byte() != 0) {
  }
  std::string_view Aug(CIE.data() + AugStart, R.ok ? R.Pos - AugStart - 1 : 0);
  R.uleb(); // code alignment
  R.uleb(); // data alignment (sleb: only skipped)
  if (Version == 1)
    R.byte();
  else
    R.uleb(); // return address register
  if (!R.ok)
    return makeError("CIE is truncated");
  if (Aug.empty() || Aug[0] != 'z')
    return uint8_t(0);
  R.uleb(); // augmentation data length
  for (char A : Aug.substr(1)) {
    uint8_t Enc = R.byte();
    if (A == 'R')
      return R.ok ? Expected<uint8_t>(Enc) : makeError("CIE augmentation data is truncated");
    if (A == 'P') { // personality pointer: skip it in its own encoding
      unsigned Size = (Enc & 0x0f) == 0x03 || (Enc & 0x0f) == 0x0b ? 4 : 8;
      R.Pos += Size;
    } else if (A != 'L')
      return makeError(formatv("unknown CIE augmentation '%c'", A));
  }
  return uint8_t(0);
}

Error splitEHFrame(LinkGraph &G, const EhFrameKinds &Kinds, const EHFrameFormat &Format) {
  Section *Sec = G.findSectionByName(Format.sectionName);
  if (!Sec || Sec->blocks.empty())
    return Error::success();
  auto ehError = [&](uint64_t Offset, const std::string &Msg) { return linklab::ehError(G, *Sec, Offset, Msg); };
  if (Sec->blocks.size() != 1)
    return makeError(G.name() + ": " + std::string(Sec->name) + ": expected one block before splitting");
  Block *Rest = Sec->blocks.front();
  if (Rest->isZeroFill())
    return makeError(G.name() + ": " + std::string(Sec->name) + ": section has no content");
  Addr SecAddr = Rest->address;

  // Find the record boundaries: [length:4][id/CIE-pointer:4][...].
  auto C = Rest->content();
  if (C.empty())
    return Error::success();
  std::vector<uint64_t> Starts;
  for (uint64_t Offset = 0; Offset < C.size();) {
    if (C.size() - Offset < 4)
      return ehError(Offset, "truncated record length");
    uint32_t Len = readData<uint32_t>(C.data() + Offset, G.bigEndian());
    if (Len == 0xffffffff)
      return ehError(Offset, "64-bit DWARF .eh_frame records are not supported");
    if (4 + uint64_t(Len) > C.size() - Offset)
      return ehError(Offset, formatv("record length %s runs past the end of the section", hex(Len).c_str()));
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
  // An FDE may gain edges for its CIE pointer and PC begin below.
  std::vector<Block *> Pieces = G.splitBlock(*Rest, Starts, 2);
  // A record's edges name the symbol covering it: one the object defines
  // (MachO's EH_Frame1), else a new anonymous one.
  std::unordered_map<const Block *, Symbol *> Covering;
  for (Symbol *S : Sec->symbols)
    if (S->offset == 0 && S->hasName() && S->size == S->block().size)
      Covering[&S->block()] = S;
  for (size_t I = 0; I < Pieces.size(); ++I) {
    auto Named = Covering.find(Pieces[I]);
    Symbol &Start =
        Named != Covering.end() ? *Named->second : G.addAnonymousSymbol(*Pieces[I], 0, Pieces[I]->size, false, false);
    Records.push_back({I ? Starts[I - 1] : 0, Pieces[I], &Start});
  }
  std::map<uint64_t, const Record *> CIEs; // by original offset
  for (const Record &Rec : Records) {
    auto &[RecOffset, B, Start] = Rec;
    if (B->size == 4) // an existing terminator
      continue;
    if (B->size < 8)
      return ehError(RecOffset, "record too small for its CIE id");
    uint32_t CIEPtr = readData<uint32_t>(B->content().data() + 4, G.bigEndian());
    if (CIEPtr == 0) {
      CIEs[RecOffset] = &Rec;
      continue;
    }
    Block *Rb = B; // not a structured binding: clang 14 (Emscripten) cannot capture those
    auto EdgeAt = [Rb](uint32_t Off) {
      return std::find_if(Rb->edges.begin(), Rb->edges.end(), [&](const Edge &E) { return E.offset == Off; });
    };
    // FDE: the CIE pointer is the distance back from this field to the CIE.
    // MachO may compute it with a SUBTRACTOR pair: a Delta32 or NegDelta32
    // edge within the section, whose value (at the graph's addresses) is the
    // distance; it is replaced by the NegDelta32 to the CIE it names.
    Addr Field = SecAddr + RecOffset + 4;
    uint64_t Distance = CIEPtr;
    auto CIEEdge = EdgeAt(4);
    bool HasEdge = CIEEdge != B->edges.end();
    if (HasEdge) {
      const Edge &E = *CIEEdge;
      if (!E.target->isDefined() || (E.kind != Kinds.delta32 && E.kind != Kinds.negDelta32))
        return ehError(RecOffset, "FDE's CIE pointer relocation is not a delta within the object");
      Addr T = E.target->address() + Addr(E.addend);
      Distance = E.kind == Kinds.delta32 ? T - Field : Field - E.target->address() + Addr(E.addend);
    }
    Addr CIEAddr = Field - Distance;
    auto CIE = CIEs.find(CIEAddr - SecAddr);
    if (CIE == CIEs.end())
      return linklab::ehError(G, *Sec, RecOffset, "No CIE found at address " + address16(CIEAddr),
                              formatv("FDE's CIE pointer %s names no CIE", hex(Distance).c_str()));
    uint64_t CIEOffset = CIE->first;
    if (HasEdge)
      B->edges.erase(CIEEdge);
    B->addEdge(Kinds.negDelta32, 4, *CIE->second->start, 0);
    // PC begin follows at offset 8: its relocation names the function, or
    // (MachO) its bytes locate it, in the CIE's pointer encoding.
    if (EdgeAt(8) == B->edges.end()) {
      auto Enc = fdePointerEncoding(CIE->second->block->content());
      if (!Enc)
        return ehError(CIEOffset, Enc.takeError().message());
      unsigned Form = *Enc & 0x0f, Apply = *Enc & 0x70;
      bool Wide = Form == 0x00 || Form == 0x04 || Form == 0x0c;
      if ((!Wide && Form != 0x03 && Form != 0x0b) || (Apply != 0x00 && Apply != 0x10))
        return ehError(CIEOffset, formatv("unsupported FDE pointer encoding %s", hex(*Enc).c_str()));
      if (B->size < 8 + (Wide ? 8u : 4u))
        return ehError(RecOffset, "FDE too small for its PC-begin field");
      const char *F = B->content().data() + 8;
      const bool BE = G.bigEndian();
      int64_t V = Wide           ? int64_t(readData<uint64_t>(F, BE))
                  : Form == 0x0b ? readData<int32_t>(F, BE)
                                 : int64_t(readData<uint32_t>(F, BE));
      Addr Field = SecAddr + RecOffset + 8;
      Addr Target = Apply == 0x10 ? Field + V : Addr(V);
      Symbol *Fn = symbolAt(G, *Sec, Target);
      if (!Fn)
        return linklab::ehError(G, *Sec, RecOffset, "No symbol or block covering address " + address16(Target),
                                formatv("FDE's PC-begin %s is in no block", hex(Target).c_str()));
      EdgeKind K = Apply == 0x10 ? (Wide ? Kinds.delta64 : Kinds.delta32) : (Wide ? Kinds.pointer64 : Kinds.pointer32);
      B->addEdge(K, 8, *Fn, 0);
    }
    Symbol &Fn = *EdgeAt(8)->target;
    if (Fn.isDefined()) // the ELF reader reserved room for these (unwindEdgesBySection)
      Fn.block().addEdge(edge::KeepAlive, 0, *Start, 0);
  }
  if (!Format.nullTerminator)
    return Error::success();
  // Unwinders stop at a zero-length record; objects do not carry one.
  static const char Terminator[4] = {};
  const Block &Last = *Records.back().block;
  Block &Null = G.createContentBlock(*Sec, {Terminator, 4}, Last.address + Last.size, 1, 0);
  G.addAnonymousSymbol(Null, 0, 4, false, true);
  return Error::success();
}

} // namespace linklab
