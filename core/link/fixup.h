// What every backend's fixups share: the edge's S, A and P computed once,
// range and alignment checks, and errors that name the graph, section,
// offset, edge kind and target (with llvm-jitlink's leading words, which
// LLVM's tests match).
#pragma once

#include "graph/link_graph.h"

namespace linklab {

// A fixup's value did not fit: names the graph, section, block offset, edge
// kind, target symbol, the value and the range [Lo, Hi].
Error makeOutOfRangeError(const LinkGraph &G, const Block &B, const Edge &E, int64_t Value, int64_t Lo, int64_t Hi);
Error makeAlignmentError(const LinkGraph &G, const Block &B, const Edge &E, uint64_t Value, unsigned Align);
// "graph: section+0xoff: KIND against sym: problem"
std::string describeEdge(const LinkGraph &G, const Block &B, const Edge &E);

// One edge being fixed up: S, A, P computed once, and the checks every
// backend's fixups make. A backend's fixup type adds its field helpers.
struct FixupContext {
  LinkGraph &G;
  Block &B;
  const Edge &E;
  char *Loc; // the fixup's bytes in the block's (now mutable) content
  int64_t S, A, P;
  bool BigEndian; // the target's data byte order (LinkGraph::bigEndian)

  FixupContext(LinkGraph &G, Block &B, const Edge &E)
      : G(G), B(B), E(E), Loc(B.mutableContent(G).data() + E.offset), S(int64_t(E.target->address())), A(E.addend),
        P(int64_t(B.fixupAddress(E))), BigEndian(G.bigEndian()) {}
  Error range(int64_t V, int64_t Lo, int64_t Hi) const {
    return V < Lo || V > Hi ? makeOutOfRangeError(G, B, E, V, Lo, Hi) : Error::success();
  }
  // Stores V as a T-sized data field (a pointer, a delta, a GOT entry: not an
  // instruction field) in the target's data byte order; with Lo and Hi,
  // after checking Lo <= V <= Hi.
  template <typename T> Error putData(int64_t V) const {
    writeData<T>(Loc, T(V), BigEndian);
    return Error::success();
  }
  template <typename T> Error putData(int64_t V, int64_t Lo, int64_t Hi) const {
    if (Error Err = range(V, Lo, Hi))
      return Err;
    return putData<T>(V);
  }
  Error aligned(int64_t V, unsigned Align) const {
    return (uint64_t(V) & (Align - 1)) ? makeAlignmentError(G, B, E, uint64_t(V), Align) : Error::success();
  }
  Error fail(const std::string &Problem) const { return makeError(describeEdge(G, B, E) + ": " + Problem); }
};
// TP offset of E's target plus E's addend (LinkGraph::tpOffsetOf); an error
// names the edge.
Expected<int64_t> edgeTPOffset(const LinkGraph &G, const Block &B, const Edge &E);

} // namespace linklab
