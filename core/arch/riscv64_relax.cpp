// RISC-V linker relaxation (psABI, "Linker Relaxation"), run after
// allocation so every block has its final address:
//
//  - R_RISCV_ALIGN: the assembler reserved A bytes of NOPs at P so that,
//    whatever the final address, some prefix can be deleted to land the code
//    after them on the next multiple of the smallest power of two > A. The
//    linker must delete exactly that many bytes; keeping them misaligns code
//    that may rely on it (jump tables, .p2align'ed loops, data in text).
//  - auipc+jalr marked R_RISCV_RELAX: becomes `jal rd` (deleting 4 bytes)
//    when the target is within +-1MiB, or `c.j` (deleting 6) when rd is x0
//    (`c.jal` when rd is ra, on RV32 only),
//    the object allows compressed code and the target is within +-2KiB.
//
// Deleting bytes moves every later symbol, symbol end and edge of the block,
// which changes other displacements, so decisions are iterated to a fixed
// point (bounded, as relaxation only ever removes bytes). Blocks shrink in
// place: later blocks keep their addresses, so only this block's symbols move;
// the block's size stays, its tail zeroed.
#include "arch/riscv64.h"
#include "arch/riscv64_fields.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <unordered_map>

namespace linklab::riscv64 {
namespace {

struct Anchor {
  uint64_t offset;
  Symbol *sym;
  bool isEnd; // offset is the symbol's end, not its start
};

struct BlockRelax {
  Block *block;
  std::vector<Anchor> anchors;   // sorted by offset, starts before ends
  std::vector<Edge *> edges;     // relaxable edges, by offset
  std::vector<uint32_t> deltas;  // bytes deleted up to and including edges[I]
  std::vector<EdgeKind> kinds;   // what edges[I] becomes (Invalid: unchanged)
};

bool isRelaxable(const Edge &E) { return E.kind == CallRelaxable || E.kind == AlignRelaxable; }

// The bytes relaxing E may rewrite: the auipc+jalr pair, or the padding.
uint64_t relaxSpan(const Edge &E) { return E.kind == CallRelaxable ? 8 : uint64_t(E.addend); }

// Relaxation shifts bytes between these regions, so each must lie inside the
// block's content and after the previous one; a malformed object can break
// either, and is refused before any byte moves.
Error checkRelaxRegions(const LinkGraph &G, const Block &B, const std::vector<Edge *> &Edges) {
  uint64_t PrevEnd = 0;
  for (const Edge *E : Edges) {
    if (E->kind == AlignRelaxable && E->addend < 0)
      return makeError(formatv("%s: negative alignment padding %lld", describeEdge(G, B, *E).c_str(),
                               (long long)E->addend));
    uint64_t Span = relaxSpan(*E);
    if (E->offset < PrevEnd)
      return makeError(formatv("%s: relaxable bytes at offset %s overlap the previous relaxable region (ending at %s)",
                               describeEdge(G, B, *E).c_str(), hex(E->offset).c_str(), hex(PrevEnd).c_str()));
    if (E->offset > B.content().size() || Span > B.content().size() - E->offset)
      return makeError(formatv("%s: %s relaxable bytes at offset %s run past the end of the block's %s content bytes",
                               describeEdge(G, B, *E).c_str(), hex(Span).c_str(), hex(E->offset).c_str(),
                               hex(B.content().size()).c_str()));
    PrevEnd = E->offset + Span;
  }
  // Another edge inside a region would be moved by bytes deleted before it.
  size_t R = 0;
  for (const Edge &E : B.edges) { // sorted by offset
    while (R < Edges.size() && Edges[R]->offset + relaxSpan(*Edges[R]) <= E.offset)
      ++R;
    if (R < Edges.size() && E.offset > Edges[R]->offset)
      return makeError(formatv("%s: fixup at offset %s lies inside the relaxable bytes of the edge at offset %s",
                               describeEdge(G, B, E).c_str(), hex(E.offset).c_str(), hex(Edges[R]->offset).c_str()));
  }
  return Error::success();
}

// How many bytes relaxing E at (moved) address Loc deletes, and its new kind.
// c.jal (link register ra) exists only in RV32C; c.j (x0) in both.
uint32_t relaxEdge(const Block &B, const Edge &E, Addr Loc, bool HasRVC, bool RV32, EdgeKind &NewKind) {
  if (E.kind == AlignRelaxable) {
    uint64_t Align = std::bit_ceil(uint64_t(E.addend) + 1);
    uint64_t Dest = (Loc + Align - 1) / Align * Align;
    NewKind = AlignRelaxable;
    return uint32_t(Loc + uint64_t(E.addend) - Dest);
  }
  uint32_t Jalr = readLE<uint32_t>(B.content().data() + E.offset + 4);
  int64_t Disp = int64_t(E.target->address()) + E.addend - int64_t(Loc);
  if (HasRVC && (rdOf(Jalr) == 0 || (RV32 && rdOf(Jalr) == 1)) && Disp >= -2048 && Disp < 2048)
    return NewKind = R_RISCV_RVC_JUMP, 6;
  if (Disp >= -(1 << 20) && Disp < (1 << 20))
    return NewKind = R_RISCV_JAL, 4;
  return NewKind = R_RISCV_CALL_PLT, 0;
}

// One pass over a block; true if any deletion amount changed.
bool relaxOnce(BlockRelax &R, bool HasRVC, bool RV32) {
  bool Changed = false;
  uint32_t Delta = 0;
  size_t NextAnchor = 0;
  auto MoveAnchorsUpTo = [&](uint64_t Offset) {
    for (; NextAnchor < R.anchors.size() && R.anchors[NextAnchor].offset <= Offset; ++NextAnchor) {
      const Anchor &A = R.anchors[NextAnchor];
      if (A.isEnd)
        A.sym->size = A.offset - Delta - A.sym->offset;
      else
        A.sym->offset = A.offset - Delta;
    }
  };
  for (size_t I = 0; I < R.edges.size(); ++I) {
    const Edge &E = *R.edges[I];
    uint32_t Remove = relaxEdge(*R.block, E, R.block->address + E.offset - Delta, HasRVC, RV32, R.kinds[I]);
    // Symbols at or before this edge are shifted by the deletions before it.
    MoveAnchorsUpTo(E.offset);
    Delta += Remove;
    if (R.deltas[I] != Delta)
      R.deltas[I] = Delta, Changed = true;
  }
  MoveAnchorsUpTo(UINT64_MAX);
  return Changed;
}

// Rewrites the block's bytes and edges according to the final decisions.
void finalize(LinkGraph &G, BlockRelax &R) {
  Block &B = *R.block;
  char *Base = B.mutableContent(G).data();
  char *Out = Base;
  uint64_t In = 0; // next original byte to copy
  uint32_t Prev = 0;
  for (size_t I = 0; I < R.edges.size(); ++I) {
    Edge &E = *R.edges[I];
    uint32_t Remove = R.deltas[I] - Prev;
    Prev = R.deltas[I];
    if (Remove == 0)
      continue; // padding already exact, or a call left as it is
    std::memmove(Out, Base + In, E.offset - In);
    Out += E.offset - In;
    uint32_t Kept = 0;
    if (R.kinds[I] == AlignRelaxable) {
      // Keep addend - Remove bytes of padding as fresh NOPs: the cut may fall
      // inside a 4-byte NOP.
      Kept = uint32_t(E.addend) - Remove;
      uint32_t J = 0;
      for (; J + 4 <= Kept; J += 4)
        writeLE<uint32_t>(Out + J, NopInsn);
      if (J < Kept)
        writeLE<uint16_t>(Out + J, CNopInsn);
    } else if (R.kinds[I] == R_RISCV_RVC_JUMP) {
      Kept = 2;
      writeLE<uint16_t>(Out, rdOf(readLE<uint32_t>(Base + E.offset + 4)) ? CJalInsn : CJInsn);
    } else { // R_RISCV_JAL, keeping the jalr's link register
      Kept = 4;
      writeLE<uint32_t>(Out, JalOpcode | rdOf(readLE<uint32_t>(Base + E.offset + 4)) << 7);
    }
    Out += Kept;
    In = E.offset + Kept + Remove;
  }
  std::memmove(Out, Base + In, B.size - In);
  // The block keeps its allocated size, as JITLink's does (dumps stay
  // comparable); the freed tail is zeroed rather than left as stale copies.
  std::memset(Out + (B.size - In), 0, Prev);

  // An edge moves back by the bytes deleted before it: by every relaxed edge
  // at a lower original offset (a relaxed edge's own deletion lies after its
  // first bytes). Original offsets are read before any is changed.
  std::vector<uint64_t> Orig;
  for (size_t K = 0; K < R.edges.size(); ++K) {
    Orig.push_back(R.edges[K]->offset);
    if (R.kinds[K] != edge::Invalid)
      R.edges[K]->kind = R.kinds[K];
  }
  size_t I = 0;
  uint32_t Delta = 0;
  for (Edge &E : B.edges) {
    for (; I < Orig.size() && Orig[I] < E.offset; ++I)
      Delta = R.deltas[I];
    E.offset -= Delta;
  }
  std::erase_if(B.edges, [](const Edge &E) { return E.kind == AlignRelaxable; });
}

} // namespace

Error relax(LinkGraph &G) {
  // Sorted edges let relaxation walk a block once and let applyFixup find
  // PCREL_HI20 and SUB_ULEB128 partners by binary search.
  G.forEachBlock([](Block &B) {
    std::stable_sort(B.edges.begin(), B.edges.end(), [](const Edge &L, const Edge &R) { return L.offset < R.offset; });
  });

  std::vector<BlockRelax> Work;
  std::unordered_map<Block *, size_t> Index;
  for (auto &Sec : G.sections()) {
    if (!hasProt(Sec->prot, MemProt::Exec))
      continue;
    for (Block *B : Sec->blocks) {
      BlockRelax R{B, {}, {}, {}, {}};
      for (Edge &E : B->edges)
        if (isRelaxable(E))
          R.edges.push_back(&E);
      if (R.edges.empty())
        continue;
      if (Error Err = checkRelaxRegions(G, *B, R.edges))
        return Err;
      R.deltas.assign(R.edges.size(), 0);
      R.kinds.assign(R.edges.size(), edge::Invalid);
      Index[B] = Work.size();
      Work.push_back(std::move(R));
    }
    for (Symbol *S : Sec->symbols) {
      auto It = Index.find(&S->block());
      if (It == Index.end())
        continue;
      auto &Anchors = Work[It->second].anchors;
      Anchors.push_back({S->offset, S, false});
      Anchors.push_back({S->offset + S->size, S, true});
    }
  }
  if (Work.empty())
    return Error::success();
  for (BlockRelax &R : Work)
    std::sort(R.anchors.begin(), R.anchors.end(), [](const Anchor &L, const Anchor &R) {
      return L.offset != R.offset ? L.offset < R.offset : L.isEnd < R.isEnd;
    });

  // Relaxation only deletes bytes, so decisions settle quickly; the bound
  // guards against oscillation. ALIGN is exact on every pass, and a call
  // decided on a stale estimate is still range-checked by its fixup.
  const bool HasRVC = G.targetFeatures & EF_RISCV_RVC;
  for (int Pass = 0; Pass < 32; ++Pass) {
    bool Changed = false;
    for (BlockRelax &R : Work)
      Changed |= relaxOnce(R, HasRVC, G.pointerSize() == 4);
    if (!Changed)
      break;
  }
  for (BlockRelax &R : Work)
    finalize(G, R);
  return Error::success();
}

} // namespace linklab::riscv64
