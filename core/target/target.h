// The registry of supported targets: one row per architecture, naming the
// pieces the generic code needs (edge-kind names, fixups, default passes,
// per-format relocation mappers). Adding a target adds a row, not a branch.
#pragma once

#include "graph/link_graph.h"
#include "link/linker.h"

#include <span>

namespace linklab {

class ElfGraphBuilder;
struct ElfRela;

// The edge kinds a target uses for .eh_frame records.
struct EhFrameKinds {
  EdgeKind delta32, delta64, negDelta32, pointer32, pointer64;
};

struct TargetInfo {
  Arch arch;
  const char *name;
  uint16_t elfMachine;
  EdgeKindNameFn edgeKindName;
  Error (*applyFixup)(LinkGraph &G, Block &B, const Edge &E);
  // GOT/PLT/stub builders, relaxation, .eh_frame splitting...
  void (*addDefaultPasses)(LinkGraph &G, PassConfiguration &Config);
  // Turns one relocation section's entries into edges on Target.
  Error (*addElfRelocations)(ElfGraphBuilder &B, Block &Target, std::span<const ElfRela> Relocs);
  EhFrameKinds ehFrame;
  // "R_X86_64_PC32" for an ELF relocation type, or null if unknown (object
  // inspection tools; the mapping table in elf_<arch>.cpp is the source).
  const char *(*elfRelocationName)(uint32_t Type) = nullptr;
};

const TargetInfo *findTarget(const Triple &TT);
const TargetInfo *findTargetByElfMachine(uint16_t Machine);

// The rows, defined in each architecture's file.
extern const TargetInfo X86_64Target;
extern const TargetInfo AArch64Target;
extern const TargetInfo RISCV64Target;

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

  FixupContext(LinkGraph &G, Block &B, const Edge &E)
      : G(G), B(B), E(E), Loc(B.mutableContent(G).data() + E.offset), S(int64_t(E.target->address())), A(E.addend),
        P(int64_t(B.fixupAddress(E))) {}
  Error range(int64_t V, int64_t Lo, int64_t Hi) const {
    return V < Lo || V > Hi ? makeOutOfRangeError(G, B, E, V, Lo, Hi) : Error::success();
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
