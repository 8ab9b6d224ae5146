// Builds a LinkGraph from an ELF relocatable object, for any supported
// architecture: one block per allocatable section, symbols from .symtab,
// then each relocation section handed to the format x arch file's mapper.
#pragma once

#include "elf/elf_file.h"
#include "graph/link_graph.h"
#include "target/target.h"

#include <memory>
#include <vector>

namespace linklab {

// An arch's relocation table (rows with a `type` field) indexed by type: one
// load per relocation instead of a scan of the table, as objects carry
// hundreds of thousands of them. The first row of a type wins, as in a scan.
// Define one at namespace scope, beside its (constant) table: built before
// main, its lookups need no initialisation guard and can be inlined.
template <typename Row> class RelocTypeIndex {
public:
  template <size_t N> explicit RelocTypeIndex(const Row (&Rows)[N]) {
    for (const Row &R : Rows) {
      if (R.type >= ByType.size())
        ByType.resize(R.type + 1, nullptr);
      if (!ByType[R.type])
        ByType[R.type] = &R;
    }
  }
  const Row *find(uint32_t Type) const { return Type < ByType.size() ? ByType[Type] : nullptr; }

private:
  std::vector<const Row *> ByType;
};

class ElfGraphBuilder {
public:
  // Turns one relocation section's entries into edges on Target: the
  // format x arch file's relocation mapping.
  using RelocationMapper = Error (*)(ElfGraphBuilder &B, Block &Target, const ElfRelocs &Relocs);
  // A defined symbol's target flags (Symbol::targetFlags), clearing any
  // flag bits its value carries (Arm: a Thumb function's bit 0).
  using SymbolFlagsFn = uint8_t (*)(const ElfSymbol &S, uint64_t &Value);
  // Buffer is shared with the graph, whose names and content point into it.
  // AcceptsRel: the psABI uses SHT_REL (implicit addends, i386); else such
  // a section is an error.
  static Expected<std::unique_ptr<LinkGraph>> build(const TargetInfo &T, std::string Name, GraphBuffer Buffer,
                                                    RelocationMapper Map, bool AcceptsRel = false,
                                                    SymbolFlagsFn Flags = nullptr);

  LinkGraph &graph() { return *G; }
  const ElfFile &file() const { return File; }
  const TargetInfo &target() const { return Target; }

  // The graph symbol for ELF symbol Index, or an error naming the relocation.
  // (Inline: every relocation passes here and through checkFixupInBlock.)
  Expected<Symbol *> relocTarget(const Block &B, const ElfRela &R) {
    if (R.sym < SymbolByIndex.size() && SymbolByIndex[R.sym]) [[likely]]
      return SymbolByIndex[R.sym];
    return lateTarget(B, R);
  }
  // "<obj>: <section>+0x<off>: <type name> (<type>): <problem>"
  Error relocError(const Block &B, const ElfRela &R, const char *TypeName, const std::string &Problem) const;
  // Checks that a Width-byte fixup at R.offset lies inside B.
  Error checkFixupInBlock(const Block &B, const ElfRela &R, unsigned Width, const char *TypeName) const {
    if (R.offset <= B.size && Width <= B.size - R.offset) [[likely]]
      return Error::success();
    return pastEndError(B, R, Width, TypeName);
  }
  // R's addend: R.addend, or for an SHT_REL entry the Width bytes at
  // R.offset, sign-extended, in the object's byte order (checked in B first).
  int64_t addendOf(const Block &B, const ElfRela &R, unsigned Width) const;

private:
  ElfGraphBuilder(ElfFile F, const TargetInfo &T, RelocationMapper M, bool AcceptsRel, SymbolFlagsFn Flags)
      : File(std::move(F)), Target(T), Map(M), AcceptsRel(AcceptsRel), Flags(Flags) {}
  Error graphifySections();
  Error graphifySymbols();
  Error addRelocations();
  std::vector<uint32_t> unwindEdgesBySection() const;
  Expected<Symbol *> lateTarget(const Block &B, const ElfRela &R);
  std::pair<Linkage, Scope> linkageAndScope(const ElfSymbol &S) const;
  Symbol &addDefined(size_t Index, const ElfSymbol &S, Block &B, uint64_t Value);
  Error pastEndError(const Block &B, const ElfRela &R, unsigned Width, const char *TypeName) const;

  ElfFile File;
  const TargetInfo &Target;
  RelocationMapper Map;
  bool AcceptsRel;
  SymbolFlagsFn Flags;
  std::unique_ptr<LinkGraph> G;
  std::vector<Block *> BlockBySection;  // by ELF section index
  std::vector<Symbol *> SymbolByIndex;  // by ELF symbol index (null for an assembler temporary until referenced)
  std::vector<Symbol *> IFuncs;         // STT_GNU_IFUNC symbols, at their resolvers
};

// The ELF row of the registry (magic, class, byte order, e_machine).
extern const ObjectFormatRow ElfFormat;

} // namespace linklab
