// Builds a LinkGraph from an ELF relocatable object, for any supported
// architecture: one block per allocatable section, symbols from .symtab,
// then each relocation section handed to the target's relocation mapper.
#pragma once

#include "elf/elf_file.h"
#include "graph/link_graph.h"
#include "target/target.h"

#include <memory>

namespace linklab {

class ElfGraphBuilder {
public:
  // Buffer is shared with the graph, whose names and content point into it.
  static Expected<std::unique_ptr<LinkGraph>> build(std::string Name, std::shared_ptr<const std::vector<char>> Buffer);

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
  ElfGraphBuilder(ElfFile F, const TargetInfo &T) : File(std::move(F)), Target(T) {}
  Error graphifySections();
  Error graphifySymbols();
  Error addRelocations();

  ElfFile File;
  const TargetInfo &Target;
  std::unique_ptr<LinkGraph> G;
  std::vector<Block *> BlockBySection;  // by ELF section index
  std::vector<Symbol *> SymbolByIndex;  // by ELF symbol index
};

// The triple of an object, from its headers alone (no graph is built).
Expected<Triple> tripleOfObject(const std::string &Name, std::span<const char> Bytes);
// The triple the ELF reader gives graphs of target T.
Triple elfTriple(const TargetInfo &T);

// Object format detection: ELF today; MachO and COFF are reported as such.
Expected<std::unique_ptr<LinkGraph>> createLinkGraphFromObject(std::string Name,
                                                               std::shared_ptr<const std::vector<char>> Buffer);

} // namespace linklab
