// Checked editing of a LinkGraph by a pass that does not hold pointers: the
// JS passes of the wasm package, or any tool that names blocks and symbols by
// the IDs of graphToJson. Every edit checks what a malformed request could
// break (unknown IDs, offsets outside a block, a symbol still targeted by an
// edge, layout changes once blocks have addresses) and returns an Error that
// names the graph and the element instead.
#pragma once

#include "api/json_export.h"
#include "link/linker.h"

#include <span>
#include <string>
#include <vector>

namespace linklab::api {

// The points in a link where a tool's passes and graph snapshots run, in
// link order: after pre-prune passes, after pruning, after post-prune passes
// (GOT/PLT/stubs exist), after allocation, before fixups, after fixups.
enum class LinkPhase : uint8_t { PrePrune, Prune, PostPrune, PostAllocation, PreFixup, PostFixup };
// "pre-prune", "prune", "post-prune", "post-allocation", "pre-fixup", "post-fixup".
std::span<const char *const> phaseNames();
const char *phaseName(LinkPhase P);
Expected<LinkPhase> parsePhase(const std::string &Name);
// Puts Pass in Config's list so that it runs at P (Prune: first of the
// post-prune passes, so before the target's GOT/PLT passes).
void addPassAt(PassConfiguration &Config, LinkPhase P, LinkGraphPass Pass);

class GraphEditor {
public:
  GraphEditor(LinkGraph &G, LinkPhase P) : G(G), P(P) {}

  LinkPhase phase() const { return P; }
  LinkGraph &graph() { return G; }
  // graphToJson with this editor's IDs (the IDs every edit takes).
  std::string data(bool WithContent) { return graphToJson(G, Ix, WithContent); }
  // Keep-Alive and every edge kind name of the graph's target.
  std::vector<std::string> edgeKindNames() const;

  Expected<uint32_t> addExternalSymbol(const std::string &Name, bool Weak);
  Expected<uint32_t> addAbsoluteSymbol(const std::string &Name, uint64_t Address, const std::string &Scope);
  // Linkage "strong" or "weak"; scope as scopeName(); an empty name makes an anonymous symbol.
  Expected<uint32_t> addDefinedSymbol(uint32_t Block, int64_t Offset, const std::string &Name, uint64_t Size,
                                      const std::string &Linkage, const std::string &Scope, bool Callable, bool Live);
  Error removeSymbol(uint32_t Id);
  Error makeExternal(uint32_t Id);
  Error setLive(uint32_t Id, bool Live);

  // Returns the new edge's index in its block.
  Expected<uint32_t> addEdge(uint32_t Block, const std::string &Kind, int64_t Offset, uint32_t Target, int64_t Addend);
  Error setEdgeKind(uint32_t Block, uint32_t Index, const std::string &Kind);
  Error setEdgeTarget(uint32_t Block, uint32_t Index, uint32_t Target);
  Error setEdgeAddend(uint32_t Block, uint32_t Index, int64_t Addend);
  Error removeEdge(uint32_t Block, uint32_t Index);

  Error createSection(const std::string &Name, const std::string &Prot);
  Expected<uint32_t> addContentBlock(const std::string &Section, std::span<const char> Content, uint64_t Alignment);
  Error setBlockContent(uint32_t Block, std::span<const char> Content);
  Error removeBlock(uint32_t Block);

private:
  Expected<Block *> block(uint32_t Id);
  Expected<Symbol *> symbol(uint32_t Id);
  Expected<Edge *> edge(uint32_t Block, uint32_t Index);
  Expected<EdgeKind> kind(const std::string &Name) const;
  Error tooLate(const char *Op) const;

  LinkGraph &G;
  LinkPhase P;
  GraphIndex Ix;
};

} // namespace linklab::api
