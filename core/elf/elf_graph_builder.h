// Builds a LinkGraph from an ELF relocatable object, for any supported
// architecture: one block per allocatable section, symbols from .symtab,
// then each relocation section handed to the format x arch file's mapper.
#pragma once

#include "elf/elf_file.h"
#include "graph/link_graph.h"
#include "target/target.h"

#include <memory>

namespace linklab {

class ElfGraphBuilder {
public:
  // Turns one relocation section's entries into edges on Target: the
  // format x arch file's relocation mapping.
  using RelocationMapper = Error (*)(ElfGraphBuilder &B, Block &Target, std::span<const ElfRela> Relocs);
  // Buffer is shared with the graph, whose names and content point into it.
  static Expected<std::unique_ptr<LinkGraph>> build(const TargetInfo &T, std::string Name, GraphBuffer Buffer,
                                                    RelocationMapper Map);

  LinkGraph &graph() { return *G; }
  const ElfFile &file() const { return File; }
  const TargetInfo &target() const { return Target; }

  // The graph symbol for ELF symbol Index, or an error naming the relocation.
  Expected<Symbol *> relocTarget(const Block &B, const ElfRela &R);
  // "<obj>: <section>+0x<off>: <type name> (<type>): <problem>"
  Error relocError(const Block &B, const ElfRela &R, const char *TypeName, const std::string &Problem) const;
  // Checks that a Width-byte fixup at R.offset lies inside B.
  Error checkFixupInBlock(const Block &B, const ElfRela &R, unsigned Width, const char *TypeName) const;

private:
  ElfGraphBuilder(ElfFile F, const TargetInfo &T, RelocationMapper M) : File(std::move(F)), Target(T), Map(M) {}
  Error graphifySections();
  Error graphifySymbols();
  Error addRelocations();

  ElfFile File;
  const TargetInfo &Target;
  RelocationMapper Map;
  std::unique_ptr<LinkGraph> G;
  std::vector<Block *> BlockBySection;  // by ELF section index
  std::vector<Symbol *> SymbolByIndex;  // by ELF symbol index
};

// The ELF row of the registry (magic, class, byte order, e_machine).
extern const ObjectFormatRow ElfFormat;

} // namespace linklab
