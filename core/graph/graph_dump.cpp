// LinkGraph::dump in the text form of llvm-jitlink's -show-graphs (LLVM 22),
// so the two tools' dumps can be compared line by line.
#include "graph/link_graph.h"

#include <algorithm>
#include <unordered_map>

namespace linklab {

static void appendf(std::string &Out, const char *Fmt, auto... Args) { Out += formatv(Fmt, Args...); }

static void appendSymbol(std::string &Out, const Symbol &S) {
  appendf(Out, "0x%llx (%s + 0x%08llx): size: 0x%08llx, linkage: %s, scope: %s, %s  -   %s",
          (unsigned long long)S.address(), S.isDefined() ? "block" : "addressable", (unsigned long long)S.offset,
          (unsigned long long)S.size, linkageName(S.linkage), scopeName(S.scope), S.live ? "live" : "dead",
          S.hasName() ? std::string(S.name).c_str() : "<anonymous symbol>");
}

std::string LinkGraph::dump() const {
  std::string Out;
  appendf(Out, "LinkGraph \"%s\" (triple = %s)\n", Name.c_str(), TT.str.c_str());

  std::unordered_map<const Block *, std::vector<Symbol *>> BlockSymbols;
  forEachDefinedSymbol([&](Symbol &S) { BlockSymbols[&S.block()].push_back(&S); });
  for (auto &[B, Syms] : BlockSymbols)
    std::sort(Syms.begin(), Syms.end(), [](const Symbol *L, const Symbol *R) {
      if (L->offset != R->offset)
        return L->offset < R->offset;
      if (L->linkage != R->linkage)
        return L->linkage < R->linkage;
      if (L->scope != R->scope)
        return L->scope < R->scope;
      if (L->hasName())
        return !R->hasName() || L->name < R->name;
      return false;
    });

  std::vector<const Section *> Sorted(Sections.begin(), Sections.end());
  std::sort(Sorted.begin(), Sorted.end(), [](auto *L, auto *R) { return L->name < R->name; });

  for (const Section *Sec : Sorted) {
    appendf(Out, "section %s:\n\n", std::string(Sec->name).c_str());
    std::vector<const Block *> Blocks(Sec->blocks.begin(), Sec->blocks.end());
    std::stable_sort(Blocks.begin(), Blocks.end(), [](auto *L, auto *R) { return L->address < R->address; });
    for (const Block *B : Blocks) {
      appendf(Out, "  block 0x%llx size = 0x%08llx, align = %llu, alignment-offset = %llu%s\n",
              (unsigned long long)B->address, (unsigned long long)B->size, (unsigned long long)B->alignment,
              (unsigned long long)B->alignmentOffset, B->isZeroFill() ? ", zero-fill" : "");
      auto It = BlockSymbols.find(B);
      if (It != BlockSymbols.end()) {
        Out += "    symbols:\n";
        for (Symbol *S : It->second) {
          Out += "      ";
          appendSymbol(Out, *S);
          Out += "\n";
        }
      } else
        Out += "    no symbols\n";
      if (!B->edges.empty()) {
        Out += "    edges:\n";
        std::vector<Edge> Edges = B->edges;
        std::stable_sort(Edges.begin(), Edges.end(), [](auto &L, auto &R) { return L.offset < R.offset; });
        for (const Edge &E : Edges) {
          appendf(Out, "      0x%llx (block + 0x%08x), addend = %c0x%08llx, kind = %s, target = ",
                  (unsigned long long)B->fixupAddress(E), E.offset, E.addend >= 0 ? '+' : '-',
                  (E.addend >= 0 ? (unsigned long long)E.addend : 0ULL - (unsigned long long)E.addend),
                  edgeKindName(E.kind));
          if (E.target->hasName())
            Out += E.target->name;
          else
            appendf(Out, "addressable@0x%llx+0x%08llx", (unsigned long long)E.target->address(),
                    (unsigned long long)E.target->offset);
          Out += "\n";
        }
      } else
        Out += "    no edges\n";
      Out += "\n";
    }
  }

  auto List = [&](const char *Title, const auto &Symbols) {
    Out += Title;
    if (Symbols.empty())
      Out += "  none\n";
    for (Symbol *S : Symbols) {
      appendf(Out, "  0x%llx: ", (unsigned long long)S->address());
      appendSymbol(Out, *S);
      Out += S->weaklyReferenced ? " (weakly referenced)\n" : "\n"; // externals only
    }
  };
  List("Absolute symbols:\n", Absolutes);
  List("\nExternal symbols:\n", Externals);
  return Out;
}

} // namespace linklab
