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
#include "support/pointer_map.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace linklab::riscv64 {
namespace {

// The bytes relaxing E may rewrite: the auipc+jalr pair, or the padding.
uint64_t relaxSpan(const Edge &E) { return E.kind == CallRelaxable ? 8 : uint64_t(E.addend); }

struct BlockRelax {
  Block *block;
  std::vector<Edge *> edges;     // relaxable edges, by offset
  std::vector<uint64_t> offsets; // their original offsets (edges[I]->offset until finalize)
  std::vector<uint32_t> deltas;  // bytes deleted up to and including edges[I]
  std::vector<EdgeKind> kinds;   // what edges[I] becomes (Invalid: unchanged)
  // What the passes read of edges[I], taken from the graph once.
  struct Site {
    Addr loc;     // the edge's original address
    int64_t dest; // a call's target address before deletions, plus addend; ALIGN: the padding size
    // A call's deletion count before its target (an entry of the target
    // block's deltas, or Zero): a symbol moves with its block's deletions.
    const uint32_t *targetDeleted;
    bool align;
    bool compressible; // c.j (rd x0), or c.jal (rd ra, RV32 only), where the object allows RVC
  };
  std::vector<Site> sites;
  static constexpr uint32_t Zero = 0;

  // Where original offset X lands once the decided bytes are deleted. A
  // site keeps its first bytes and deletes its last; an X inside the deleted
  // bytes (a symbol in ALIGN padding: only a malformed object has one) lands
  // where they were, not before the site. Hint (the previous answer's index)
  // makes a walk in offset order linear.
  uint64_t moved(uint64_t X, size_t &Hint) const {
    size_t I = firstAtOrAfter(X, Hint);
    if (!I)
      return X;
    uint64_t Earlier = I > 1 ? deltas[I - 2] : 0, Removed = deltas[I - 1] - Earlier;
    uint64_t DeletedFrom = offsets[I - 1] + relaxSpan(*edges[I - 1]) - Removed;
    return X - Earlier - (X > DeletedFrom ? std::min(X - DeletedFrom, Removed) : 0);
  }
  size_t firstAtOrAfter(uint64_t X, size_t &Hint) const {
    size_t Lo = 0, Hi = std::min(Hint, offsets.size());
    if (Hi == 0 || offsets[Hi - 1] < X) { // at or after the hint: gallop forward
      Lo = Hi;
      for (size_t Step = 1; Hi < offsets.size() && offsets[Hi] < X; Step *= 2)
        Lo = Hi + 1, Hi = Lo + Step;
      Hi = std::min(Hi, offsets.size());
    }
    return Hint = std::lower_bound(offsets.begin() + Lo, offsets.begin() + Hi, X) - offsets.begin();
  }
};

// The blocks being relaxed, by block ordinal: a symbol's address is read
// through its block's deletions, so no symbol moves until the end.
struct RelaxSet {
  std::vector<BlockRelax> work;
  std::vector<int32_t> byOrdinal; // index into work, or -1

  const BlockRelax *of(const Block &B) const {
    return byOrdinal[B.ordinal] >= 0 ? &work[byOrdinal[B.ordinal]] : nullptr;
  }
  // Where S's deletion count lives; found once per symbol (calls share a
  // few targets), read on every pass.
  const uint32_t *deletedBefore(Symbol &S) {
    const uint32_t *&Found = byTarget[&S];
    if (!Found) {
      const BlockRelax *R = S.isDefined() ? of(S.block()) : nullptr;
      size_t I = 0;
      I = R ? R->firstAtOrAfter(S.offset, I) : 0;
      Found = I ? &R->deltas[I - 1] : &BlockRelax::Zero;
    }
    return Found;
  }
  PointerMap<Symbol, const uint32_t> byTarget;
};

bool isRelaxable(const Edge &E) { return E.kind == CallRelaxable || E.kind == AlignRelaxable; }

// Relaxation shifts bytes between these regions, so each must lie inside the
// block's content and after the previous one; a malformed object can break
// either, and is refused before any byte moves.
Error checkRelaxRegions(const LinkGraph &G, const Block &B, const std::vector<Edge *> &Edges) {
  uint64_t PrevEnd = 0;
  for (const Edge *E : Edges) {
    if (E->kind == AlignRelaxable && E->addend < 0)
      return makeError(
          formatv("%s: negative alignment padding %lld", describeEdge(G, B, *E).c_str(), (long long)E->addend));
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

// How many bytes relaxing site S deletes when Delta bytes went before it,
// and what its edge becomes.
uint32_t relaxSite(const BlockRelax::Site &S, uint32_t Delta, EdgeKind &NewKind) {
  Addr Loc = S.loc - Delta;
  if (S.align) {
    uint64_t Align = std::bit_ceil(uint64_t(S.dest) + 1);
    uint64_t Dest = (Loc + Align - 1) / Align * Align;
    NewKind = AlignRelaxable;
    return uint32_t(Loc + uint64_t(S.dest) - Dest);
  }
  int64_t Disp = int64_t(uint64_t(S.dest) - *S.targetDeleted - Loc);
  if (S.compressible && Disp >= -2048 && Disp < 2048)
    return NewKind = R_RISCV_RVC_JUMP, 6;
  if (Disp >= -(1 << 20) && Disp < (1 << 20))
    return NewKind = R_RISCV_JAL, 4;
  return NewKind = R_RISCV_CALL_PLT, 0;
}

// One pass over a block; true if any deletion amount changed.
bool relaxOnce(BlockRelax &R) {
  bool Changed = false;
  uint32_t Delta = 0;
  for (size_t I = 0; I < R.sites.size(); ++I) {
    Delta += relaxSite(R.sites[I], Delta, R.kinds[I]);
    if (R.deltas[I] != Delta)
      R.deltas[I] = Delta, Changed = true;
  }
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
  for (size_t K = 0; K < R.edges.size(); ++K)
    if (R.kinds[K] != edge::Invalid)
      R.edges[K]->kind = R.kinds[K];
  size_t I = 0;
  uint32_t Delta = 0;
  for (Edge &E : B.edges) {
    for (; I < R.offsets.size() && R.offsets[I] < E.offset; ++I)
      Delta = R.deltas[I];
    E.offset -= Delta;
  }
  std::erase_if(B.edges, [](const Edge &E) { return E.kind == AlignRelaxable; });
}

} // namespace

Error relax(LinkGraph &G) {
  // Sorted edges let relaxation walk a block once and let applyFixup find
  // PCREL_HI20 and SUB_ULEB128 partners by binary search. Edges come in
  // relocation order, sorted, then a few that passes appended (the unwind
  // keep-alives): sorting only those and merging is linear.
  auto ByOffset = [](const Edge &L, const Edge &R) { return L.offset < R.offset; };
  G.forEachBlock([&](Block &B) {
    auto Tail = std::is_sorted_until(B.edges.begin(), B.edges.end(), ByOffset);
    std::stable_sort(Tail, B.edges.end(), ByOffset);
    std::inplace_merge(B.edges.begin(), Tail, B.edges.end(), ByOffset);
  });

  RelaxSet Set;
  Set.byOrdinal.assign(G.blockOrdinalBound(), -1);
  for (auto &Sec : G.sections()) {
    if (!hasProt(Sec->prot, MemProt::Exec))
      continue;
    for (Block *B : Sec->blocks) {
      BlockRelax R{B, {}, {}, {}, {}, {}};
      for (Edge &E : B->edges)
        if (isRelaxable(E))
          R.edges.push_back(&E), R.offsets.push_back(E.offset);
      if (R.edges.empty())
        continue;
      if (Error Err = checkRelaxRegions(G, *B, R.edges))
        return Err;
      R.deltas.assign(R.edges.size(), 0);
      R.kinds.assign(R.edges.size(), edge::Invalid);
      Set.byOrdinal[B->ordinal] = int32_t(Set.work.size());
      Set.work.push_back(std::move(R));
    }
  }
  if (Set.work.empty())
    return Error::success();
  // c.jal (link register ra) exists only in RV32C; c.j (x0) in both.
  const bool HasRVC = G.targetFeatures & EF_RISCV_RVC, RV32 = G.pointerSize() == 4;
  for (BlockRelax &R : Set.work)
    for (Edge *E : R.edges) {
      Addr Loc = R.block->address + E->offset;
      if (E->kind == AlignRelaxable) {
        R.sites.push_back({Loc, E->addend, &BlockRelax::Zero, true, false});
        continue;
      }
      unsigned Rd = rdOf(readLE<uint32_t>(R.block->content().data() + E->offset + 4));
      R.sites.push_back({Loc, int64_t(E->target->address() + uint64_t(E->addend)), Set.deletedBefore(*E->target), false,
                         HasRVC && (Rd == 0 || (RV32 && Rd == 1))});
    }

  // Relaxation only deletes bytes, so decisions settle quickly; the bound
  // guards against oscillation. ALIGN is exact on every pass, and a call
  // decided on a stale estimate is still range-checked by its fixup.
  for (int Pass = 0; Pass < 32; ++Pass) {
    bool Changed = false;
    for (BlockRelax &R : Set.work)
      Changed |= relaxOnce(R);
    if (!Changed)
      break;
  }
  // Symbols (starts and ends) move back by the bytes deleted before them.
  // A section lists its symbols mostly in offset order, which the hints use.
  for (auto &Sec : G.sections()) {
    size_t StartHint = 0, EndHint = 0;
    for (Symbol *S : Sec->symbols)
      if (const BlockRelax *R = Set.of(S->block())) {
        uint64_t End = R->moved(S->offset + S->size, EndHint);
        S->offset = R->moved(S->offset, StartHint);
        S->size = End - S->offset;
      }
  }
  for (BlockRelax &R : Set.work)
    finalize(G, R);
  return Error::success();
}

} // namespace linklab::riscv64
