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

// One row of an arch's relocation table. The table names every static
// relocation type of the arch's psABI, so an unsupported one is reported by
// name; the types linklab links carry their edge kind and fixup width.
struct ElfRelocType {
  uint32_t type;
  const char *name;
  EdgeKind kind;            // the edge it becomes, or one of the markers below
  uint8_t width = 0;        // bytes the fixup writes
  int64_t addendAdjust = 0; // added to the addend (x86-64: a kind that folds in the -4)
};
// The kind column's markers.
inline constexpr EdgeKind UnsupportedReloc = edge::Invalid; // a known type linklab does not link: an error
inline constexpr EdgeKind NoEdgeReloc = edge::KeepAlive;    // a marker or hint with nothing to fix up

// An arch's relocation table indexed by type: one load per relocation
// instead of a scan of the table, as objects carry hundreds of thousands of
// them. The first row of a type wins, as in a scan. Define one at namespace
// scope, beside its (constant) table: built before main, its lookups need no
// initialisation guard and can be inlined.
class ElfRelocTable {
public:
  template <size_t N> explicit ElfRelocTable(const ElfRelocType (&Rows)[N]) {
    for (const ElfRelocType &R : Rows) {
      if (R.type >= ByType.size())
        ByType.resize(R.type + 1, nullptr);
      if (!ByType[R.type])
        ByType[R.type] = &R;
    }
  }
  const ElfRelocType *find(uint32_t Type) const { return Type < ByType.size() ? ByType[Type] : nullptr; }
  // The type's psABI name, or null for a number the table does not know.
  const char *name(uint32_t Type) const {
    const ElfRelocType *T = find(Type);
    return T ? T->name : nullptr;
  }

private:
  std::vector<const ElfRelocType *> ByType;
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
  // R's row in Table, or the error for a type linklab does not link (named
  // when the table knows it). A NoEdgeReloc row is returned: callers skip it.
  Expected<const ElfRelocType *> linkedType(const ElfRelocTable &Table, const Block &B, const ElfRela &R) const {
    const ElfRelocType *T = Table.find(R.type);
    if (T && T->kind != UnsupportedReloc) [[likely]]
      return T;
    return relocError(B, R, T ? T->name : nullptr, "unsupported relocation type");
  }
  // Calls Add(I) for each relocation I of a section in order, and reports
  // every one that fails together, a line each (the first MaxRelocErrors,
  // then how many more), so a bad object's problems show at once.
  static constexpr size_t MaxRelocErrors = 16;
  template <typename AddFn> static Error forEachReloc(size_t Count, AddFn Add) {
    std::string Errors;
    size_t Failed = 0;
    for (size_t I = 0; I < Count; ++I)
      if (Error E = Add(I); E && ++Failed <= MaxRelocErrors)
        Errors += (Errors.empty() ? "" : "\n") + E.message();
    if (Failed > MaxRelocErrors)
      Errors += formatv("\n... and %zu more bad relocations in the section", Failed - MaxRelocErrors);
    return Errors.empty() ? Error::success() : makeError(Errors);
  }
  // The plain case: R's row in Table becomes an edge with R's addend (an
  // SHT_REL entry's from the bytes it relocates, addendOf) plus
  // the row's adjustment (modular: a wrapped value is what the field ends up
  // holding); a NoEdgeReloc row adds none.
  Error addTableEdge(const ElfRelocTable &Table, Block &B, const ElfRela &R);
  // A section whose relocations are all the plain case.
  Error addTableEdges(const ElfRelocTable &Table, Block &B, const ElfRelocs &Relocs) {
    return forEachReloc(Relocs.size(), [&](size_t I) { return addTableEdge(Table, B, Relocs[I]); });
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
  std::vector<Block *> BlockBySection; // by ELF section index
  std::vector<Symbol *> SymbolByIndex; // by ELF symbol index (null for an assembler temporary until referenced)
  std::vector<Symbol *> IFuncs;        // STT_GNU_IFUNC symbols, at their resolvers
};

// The ELF row of the registry (magic, class, byte order, e_machine).
extern const ObjectFormatRow ElfFormat;

} // namespace linklab
