// GOT and stub tables: one entry per target symbol, created on demand by a
// post-prune pass that visits every edge once. Each architecture supplies
// how an entry looks (a Builder) and which edges ask for one.
#pragma once

#include "graph/link_graph.h"
#include "support/pointer_map.h"

#include <array>
#include <vector>

namespace linklab {

class TableManager {
public:
  // Creates the entry block (and an anonymous symbol for it) for Target.
  using Builder = Symbol &(*)(LinkGraph &G, Section &TableSection, Symbol &Target);

  // B may be null for a table whose entries need more than the target (a
  // stub needs its GOT entry): they come from the overload taking a builder.
  TableManager(const char *SectionName, MemProt Prot, Builder B = nullptr)
      : SectionName(SectionName), Prot(Prot), Build(B) {}

  Symbol &getEntryForTarget(LinkGraph &G, Symbol &Target) { return getEntryForTarget(G, Target, Build); }
  // The section exists (found or created) before Make runs.
  template <typename MakeFn> Symbol &getEntryForTarget(LinkGraph &G, Symbol &Target, MakeFn Make) {
    Symbol *&Entry = Entries[&Target];
    if (!Entry) {
      if (!Sec)
        Sec = G.findSectionByName(SectionName);
      if (!Sec)
        Sec = &G.createSection(SectionName, Prot);
      Entry = &Make(G, *Sec, Target);
    }
    return *Entry;
  }

private:
  const char *SectionName;
  MemProt Prot;
  Builder Build;
  Section *Sec = nullptr;
  PointerMap<Symbol, Symbol> Entries;
};

// An arch's GOT/stub pass is one of these rows per edge kind that asks for a
// table entry: such an edge is retargeted to its target's entry in the
// pass's Table and becomes kind To. What no row covers (stubs for calls
// leaving the graph, entries that need more than the target) the arch's
// pass handles itself.
template <typename Pass> struct EntryRequest {
  EdgeKind From, To;
  TableManager Pass::*Table;
};

// The rows indexed by kind: one load per edge instead of a scan of the rows.
template <typename Pass> class EntryRequests {
public:
  template <size_t N> explicit EntryRequests(const EntryRequest<Pass> (&Rows)[N]) {
    for (const EntryRequest<Pass> &R : Rows)
      ByKind[R.From] = &R;
  }
  // Retargets E when a row asks for its kind; false when none does.
  bool retarget(Pass &P, LinkGraph &G, Edge &E) const {
    const EntryRequest<Pass> *R = ByKind[E.kind];
    if (!R)
      return false;
    E.kind = R->To;
    E.target = &(P.*R->Table).getEntryForTarget(G, *E.target);
    return true;
  }

private:
  std::array<const EntryRequest<Pass> *, 256> ByKind{};
};

// Calls Visit on every edge of G's blocks as they are when it starts (the
// visit adds the entry and stub blocks, whose edges need no visit).
template <typename Fn> void forEachEdgeOnce(LinkGraph &G, Fn Visit) {
  std::vector<Block *> Blocks;
  G.forEachBlock([&](Block &B) { Blocks.push_back(&B); });
  for (Block *B : Blocks)
    for (Edge &E : B->edges)
      Visit(E);
}

// A pointer-sized, pointer-aligned table entry whose one edge (of kind K,
// e.g. a pointer or thread-pointer offset) fills it from Target: GOT entries.
inline Symbol &createPointerEntry(LinkGraph &G, Section &Table, Symbol &Target, EdgeKind K) {
  static const char Zero[8] = {};
  unsigned Size = G.pointerSize();
  Block &B = G.createContentBlock(Table, {Zero, Size}, 0, Size, 0);
  B.addEdge(K, 0, Target, 0);
  return G.addAnonymousSymbol(B, 0, Size, false, false);
}

// The names llvm-jitlink gives these sections, so dumps and checks line up.
inline constexpr const char *GOTSectionName = "$__GOT";
inline constexpr const char *StubsSectionName = "$__STUBS";

// How an arch's GOT pass defines _GLOBAL_OFFSET_TABLE_ at the GOT's start,
// as llvm-jitlink does for that arch (its dumps show these differences).
struct GOTSymbolStyle {
  MemProt prot;   // of a GOT section made only to hold the symbol
  uint64_t align; // of the empty first block made then
  bool live;      // whether an external reference turned definition is live
  bool forAnyGOT; // defined whenever the graph has a GOT, not only when used
};

// Defines _GLOBAL_OFFSET_TABLE_ at the GOT's first block when the graph refers
// to it, when an edge measures from it (GOTRelative), or (Style.forAnyGOT)
// when the graph has a GOT; the GOT is created empty if need be.
inline void defineGOTSymbol(LinkGraph &G, bool GOTRelative, const GOTSymbolStyle &Style) {
  Symbol *Ref = nullptr;
  for (Symbol *S : G.externalSymbols())
    if (S->name == "_GLOBAL_OFFSET_TABLE_")
      Ref = S;
  Section *GOTSec = G.findSectionByName(GOTSectionName);
  if (!Ref && !GOTRelative && !(Style.forAnyGOT && GOTSec))
    return;
  if (!GOTSec)
    GOTSec = &G.createSection(GOTSectionName, Style.prot);
  if (GOTSec->blocks.empty())
    G.createContentBlock(*GOTSec, std::span<const char>(), 0, Style.align, 0);
  Block &First = *GOTSec->blocks.front();
  if (Ref)
    G.makeDefined(*Ref, First, 0, 0, Linkage::Strong, Scope::Local, Style.live);
  else
    G.addDefinedSymbol(First, 0, "_GLOBAL_OFFSET_TABLE_", 0, Linkage::Strong, Scope::Local, false, true);
}

// The GOT's start, where the arch's GOT pass defines _GLOBAL_OFFSET_TABLE_
// (its first block, which layout places first); 0 without a GOT.
inline Addr gotBase(const LinkGraph &G) {
  Section *GOT = G.findSectionByName(GOTSectionName);
  return GOT && !GOT->blocks.empty() ? GOT->blocks.front()->address : 0;
}

} // namespace linklab
