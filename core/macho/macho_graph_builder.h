// Builds a LinkGraph from a 64-bit little-endian MachO relocatable object
// (MH_OBJECT), for any supported architecture, as JITLink's
// MachOLinkGraphBuilder does: one graph section per MachO section ("SEG,sect"),
// blocks split at symbols when the object is MH_SUBSECTIONS_VIA_SYMBOLS
// (alt-entry symbols stay in their predecessor's block), C-string sections
// split per string, commons as zero-fill blocks in __common, then each
// section's relocations handed to the architecture's mapper (macho_<arch>.cpp).
//
// Every offset, index and count read from the file is checked before use; a
// violation is an Error naming the object and, for relocations, the section
// and offset.
#pragma once

#include "graph/link_graph.h"
#include "link/linker.h"
#include "target/target.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>

namespace linklab {

namespace macho {
enum : uint32_t { MH_MAGIC_64 = 0xfeedfacf, MH_OBJECT = 1, MH_SUBSECTIONS_VIA_SYMBOLS = 0x2000 };
enum : uint32_t { CPU_TYPE_X86_64 = 0x01000007, CPU_TYPE_ARM64 = 0x0100000c };
// cpusubtype: the low bits name the variant, the high byte holds capabilities.
enum : uint32_t { CPU_SUBTYPE_MASK = 0xff000000, CPU_SUBTYPE_ARM64E = 2 };
enum : uint32_t { LC_SYMTAB = 0x2, LC_SEGMENT_64 = 0x19 };
enum : uint32_t {
  SECTION_TYPE = 0xff,
  S_ZEROFILL = 0x1,
  S_CSTRING_LITERALS = 0x2,
  S_GB_ZEROFILL = 0xc,
  S_THREAD_LOCAL_ZEROFILL = 0x12,
  S_ATTR_PURE_INSTRUCTIONS = 0x80000000u,
  S_ATTR_NO_DEAD_STRIP = 0x10000000,
  S_ATTR_DEBUG = 0x02000000,
};
enum : uint8_t { N_STAB = 0xe0, N_PEXT = 0x10, N_TYPE = 0x0e, N_EXT = 0x01 };
enum : uint8_t { N_UNDF = 0x0, N_ABS = 0x2, N_INDR = 0xa, N_PBUD = 0xc, N_SECT = 0xe };
enum : uint16_t { N_NO_DEAD_STRIP = 0x20, N_WEAK_REF = 0x40, N_WEAK_DEF = 0x80, N_ALT_ENTRY = 0x200 };
} // namespace macho

struct MachORelocation {
  uint32_t address;   // from the start of the section
  uint32_t symbolnum; // symbol index (extern) or 1-based section number
  bool pcrel;
  uint8_t length; // log2 of the width
  bool external;
  uint8_t type;
  uint32_t index; // position in the section's relocation list, for errors
};

struct MachOSection {
  std::string_view segName, sectName;
  Addr address;
  uint64_t size;
  uint64_t alignment;
  uint32_t flags;
  const char *data; // null for zero-fill sections
  std::span<const char> relocData;
  uint32_t nreloc;
  Section *graphSection = nullptr;
  // The symbol each address starts, for section-relative relocations (JITLink's
  // canonical symbols: the first one made at an address).
  std::map<Addr, Symbol *> canonical;
};

class MachOGraphBuilder;

// A symbol-table entry, with what the graph builder derives from it.
struct MachONSym {
  uint32_t index;
  std::optional<std::string_view> name;
  uint64_t value;
  uint8_t type, sect;
  uint16_t desc;
  Linkage linkage;
  Scope scope;
  bool isAltEntry() const { return desc & macho::N_ALT_ENTRY; }
};

// One architecture's half of the reader (macho_<arch>.cpp): turns one
// section's relocations into edges (pairs consume two entries).
using MachORelocationMapper = Error (*)(MachOGraphBuilder &B, MachOSection &S, std::span<const MachORelocation> Relocs);

// The format's registry row (target/targets.def).
extern const ObjectFormatRow MachOFormat;

class MachOGraphBuilder {
public:
  // Buffer is shared with the graph, whose names and content point into it.
  // TripleName: what llvm-jitlink calls the graph's triple ("arm64-apple-darwin").
  static Expected<std::unique_ptr<LinkGraph>> build(const TargetInfo &T, const char *TripleName, std::string Name,
                                                    GraphBuffer Buffer, MachORelocationMapper Map);

  LinkGraph &graph() { return *G; }

  // Object inspection: the sections and relocation entries build() parses
  // and checks, read the same way without building a graph. OnSection(S)
  // for each section in load-command order (S.graphSection names it), then
  // OnRelocation(S, R, name of R's symbol: extern entries only, else "")
  // for each entry of its table. Errors are build()'s for the same defects.
  using SectionFn = std::function<void(const MachOSection &S)>;
  using RelocationFn =
      std::function<void(const MachOSection &S, const MachORelocation &R, std::string_view SymbolName)>;
  static Error forEachRelocation(const TargetInfo &T, std::string Name, std::span<const char> Bytes,
                                 const SectionFn &OnSection, const RelocationFn &OnRelocation);

  // --- helpers for the architecture mappers -----------------------------------
  // "<obj>: <SEG,sect>+0x<off>: <NAME> (type N): problem"
  Error relocError(const MachOSection &S, const MachORelocation &R, const std::string &Problem) const;
  // The block holding [address, address + 2^length) of S, or an error.
  Expected<Block *> blockToFix(const MachOSection &S, const MachORelocation &R);
  // The graph symbol for symbol-table index Index (extern relocations).
  Expected<Symbol *> symbolByIndex(const MachOSection &S, const MachORelocation &R, uint32_t Index);
  // The canonical symbol covering Address in 1-based section SectNum
  // (section-relative relocations).
  Expected<Symbol *> symbolByAddress(const MachOSection &S, const MachORelocation &R, uint32_t SectNum, Addr Address);
  // A SUBTRACTOR (R) and its UNSIGNED partner (Next): Delta (fixing up the
  // minuend's block) or NegDelta (fixing up the subtrahend's), as JITLink.
  struct PairKinds {
    uint8_t unsignedType;
    EdgeKind delta32, delta64, negDelta32, negDelta64;
    bool sameBlockByOffset; // arm64: both symbols in the fixed-up block, decide by their offsets
  };
  Error addSubtractorPair(MachOSection &S, const MachORelocation &R, const MachORelocation *Next, const PairKinds &K);

private:
  MachOGraphBuilder(std::string Name, std::span<const char> Bytes, const TargetInfo &T, MachORelocationMapper Map)
      : Name(std::move(Name)), Bytes(Bytes), Target(T), Map(Map) {}
  Error error(const std::string &Msg) const { return makeError(Name + ": " + Msg); }
  Error parseLoadCommands();
  Error graphifySymbols();
  Error graphifySection(MachOSection &S, std::vector<MachONSym *> &Syms);
  Error graphifyCStrings(MachOSection &S, std::vector<MachONSym *> &Syms);
  Symbol &addSymbol(MachOSection &S, MachONSym &N, Block &B, uint64_t Size, bool Canonical);
  Error addRelocations();
  // S's relocation entries, decoded (scattered entries refused).
  Expected<std::vector<MachORelocation>> relocationsOf(const MachOSection &S) const;

  std::string Name;
  std::span<const char> Bytes;
  const TargetInfo &Target;
  MachORelocationMapper Map;
  std::unique_ptr<LinkGraph> G;
  bool SubsectionsViaSymbols = false;
  std::vector<MachOSection> Sections; // by section number - 1
  std::vector<MachONSym> NSyms;
  std::vector<Symbol *> SymbolByIndex; // null for stabs and symbols of dropped sections
  Section *Common = nullptr;
};

// A post-allocation pass: externals named section$start$SEG$SECT and
// section$end$SEG$SECT become local symbols at the start of the section's
// first block and the end of its last (address 0 if the section is empty),
// as ld64 and JITLink define them. Names of sections the object lacks stay
// external.
Error defineSectionRangeSymbols(LinkGraph &G);

} // namespace linklab
