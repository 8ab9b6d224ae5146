// Builds a LinkGraph from a COFF relocatable object (the Microsoft PE/COFF
// specification, "COFF File Header", "Section Table", "COFF Symbol Table"),
// as JITLink's COFFLinkGraphBuilder does: one block per section (sections of
// one name share a graph section), symbols sized by the distance to the next
// one, COMDAT leaders named by the symbol that follows their section symbol
// (IMAGE_COMDAT_SELECT_ANY and friends become weak, NODUPLICATES strong,
// ASSOCIATIVE sections kept alive by their parent), weak externals as weak
// aliases of their default, then each section's relocations handed to the
// architecture's mapper (coff_<arch>.cpp).
//
// Every offset, index and count read from the file is checked before use; a
// violation is an Error naming the object and, for relocations, the section
// and offset.
#pragma once

#include "graph/link_graph.h"
#include "link/linker.h"
#include "target/target.h"

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace linklab {

struct COFFRelocation {
  uint32_t offset; // from the start of the section
  uint32_t symbol; // symbol-table index
  uint16_t type;
  uint32_t index; // position in the section's relocation list, for errors
};

class COFFGraphBuilder;

// One architecture's half of the reader (coff_<arch>.cpp): turns one
// relocation into an edge on B (the section's block).
using COFFRelocationMapper = Error (*)(COFFGraphBuilder &GB, Block &B, const COFFRelocation &R);

// The format's registry row (target/targets.def).
extern const ObjectFormatRow COFFFormat;

class COFFGraphBuilder {
public:
  // Buffer is shared with the graph, whose names and content point into it.
  // TripleName: what llvm-jitlink calls the graph's triple ("x86_64---coff").
  static Expected<std::unique_ptr<LinkGraph>> build(const TargetInfo &T, const char *TripleName, std::string Name,
                                                    GraphBuffer Buffer, COFFRelocationMapper Map);

  LinkGraph &graph() { return *G; }
  // Object inspection: the section headers and relocation records build()
  // parses and checks (long names resolved), read the same way without
  // building a graph. OnSection(name, Characteristics) for each header in
  // table order, then OnRelocation(its section's name, R, the name of R's
  // symbol or "" if R.symbol names no symbol record) for each record of each
  // section. Errors are build()'s for the same defects.
  using SectionFn = std::function<void(std::string_view Name, uint32_t Characteristics)>;
  using RelocationFn =
      std::function<void(std::string_view Section, const COFFRelocation &R, std::string_view SymbolName)>;
  static Error forEachRelocation(const TargetInfo &T, std::string Name, std::span<const char> Bytes,
                                 const SectionFn &OnSection, const RelocationFn &OnRelocation);
  // "<obj>: <section>+0x<off>: <NAME> (type N, relocation I): problem"
  Error relocError(const Block &B, const COFFRelocation &R, const std::string &Problem) const;
  // The graph symbol of symbol-table index R.symbol, or an error.
  Expected<Symbol *> target(const Block &B, const COFFRelocation &R);
  // Checks that a Width-byte fixup at R.offset lies inside B.
  Error checkFixup(const Block &B, const COFFRelocation &R, unsigned Width) const;
  // The 1-based section number B was made from.
  uint16_t sectionNumber(const Block &B) const;
  // The external __ImageBase, which RVA relocations (ADDR32NB) count from.
  Symbol &imageBase();

private:
  COFFGraphBuilder(std::string Name, std::span<const char> Bytes, const TargetInfo &T, COFFRelocationMapper Map)
      : Name(std::move(Name)), Bytes(Bytes), Target(T), Map(Map) {}
  Error error(const std::string &Msg) const { return makeError(Name + ": " + Msg); }
  Error parseHeaders();
  Error graphifySections();
  Error graphifySymbols();
  Error addRelocations();
  Expected<std::string_view> stringAt(uint32_t Offset) const;
  // The name of the symbol record at E: short, or in the string table.
  Expected<std::string_view> symbolName(const char *E) const;
  // Relocation record J of section header I.
  COFFRelocation relocation(size_t I, uint32_t J) const;
  Error parseDirectives(std::string_view Text);

  struct SectionHeader {
    std::string_view name;
    uint32_t size, dataOffset, relocOffset, characteristics;
    uint16_t nreloc;
  };
  std::string Name;
  std::span<const char> Bytes;
  const TargetInfo &Target;
  COFFRelocationMapper Map;
  std::unique_ptr<LinkGraph> G;
  std::vector<SectionHeader> Sections;
  std::vector<Block *> BlockBySection; // by section number - 1; null for discarded sections
  uint32_t SymtabOffset = 0, NumSymbols = 0;
  std::string_view Strings;
  std::vector<Symbol *> SymbolByIndex;
  Symbol *ImageBase = nullptr;
  Section *Common = nullptr;
  std::vector<std::pair<std::string, std::string>> AlternateNames;   // .drectve /alternatename:From=To
  std::vector<std::string> Includes;                                 // .drectve /include:Symbol
  std::unordered_map<std::string_view, Symbol *> Externals, Defined; // by name: undefined; exported definitions
};

} // namespace linklab
