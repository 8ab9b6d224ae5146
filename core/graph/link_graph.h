// The LinkGraph: an object file as sections of blocks (addressable bytes),
// symbols (names for offsets in blocks, or external / absolute addresses) and
// edges (fixups from a block offset to a symbol). Readers build it, passes
// rewrite it, the link algorithm assigns addresses and applies the edges.
//
// Storage is built for speed on large objects: blocks and symbols live in
// chunked pools owned by the graph (stable addresses, one allocation per
// chunk), names and content point into the object buffer or the graph's
// arena, and each block keeps its edges in one vector.
#pragma once

#include "support/bits.h"
#include "support/error.h"
#include "support/name_index.h"
#include "support/shared_bytes.h"
#include "support/stable_pool.h"
#include "target/target.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace linklab {

class Block;
class Section;
class Symbol;
class LinkGraph;

enum class MemProt : uint8_t { None = 0, Read = 1, Write = 2, Exec = 4 };
inline MemProt operator|(MemProt A, MemProt B) { return MemProt(uint8_t(A) | uint8_t(B)); }
inline bool hasProt(MemProt P, MemProt Bit) { return (uint8_t(P) & uint8_t(Bit)) != 0; }
std::string protString(MemProt P);                    // "R-X"
std::optional<MemProt> parseProt(std::string_view S); // protString's inverse; nullopt if not of that form

// Standard: lives as long as the code. NoAlloc: never given target memory
// (non-SHF_ALLOC sections such as .comment).
enum class MemLifetime : uint8_t { Standard, NoAlloc };

enum class Linkage : uint8_t { Strong, Weak };
enum class Scope : uint8_t { Default, Hidden, Local };
const char *linkageName(Linkage L);
const char *scopeName(Scope S);

namespace edge {
enum : EdgeKind { Invalid = 0, KeepAlive = 1, FirstRelocation = 2 };
}

struct Edge {
  Symbol *target = nullptr;
  int64_t addend = 0;
  uint32_t offset = 0; // from the start of the owning block
  EdgeKind kind = edge::Invalid;

  bool isRelocation() const { return kind >= edge::FirstRelocation; }
};

// Something with an address: a block, or the stand-in for an external or
// absolute symbol (whose address is known only after lookup, or fixed).
class Addressable {
public:
  enum class Kind : uint8_t { Block, External, Absolute };
  Addr address = 0;
  explicit Addressable(Kind K, Addr A) : address(A), K(K) {}
  Kind addressableKind() const { return K; }
  bool isDefined() const { return K == Kind::Block; }

private:
  Kind K;
};

class Block : public Addressable {
public:
  Block(Section &S, const char *Data, uint64_t Size, Addr A, uint64_t Align, uint64_t AlignOfs, bool ZeroFill)
      : Addressable(Kind::Block, A), section(&S), data(Data), size(Size), alignment(Align ? Align : 1),
        alignmentOffset(AlignOfs), zeroFill(ZeroFill) {}

  Section *section;
  const char *data; // null for zero-fill blocks
  uint64_t size;
  uint64_t alignment;
  uint64_t alignmentOffset;
  bool zeroFill;
  bool contentMutable = false; // data points at memory this graph may write
  uint32_t ordinal = 0;        // creation order, for stable layouts
  std::vector<Edge> edges;

  bool isZeroFill() const { return zeroFill; }
  std::span<const char> content() const { return {data, zeroFill ? 0 : size_t(size)}; }
  // Copies the content into graph-owned memory (once) and returns it writable.
  std::span<char> mutableContent(LinkGraph &G);
  void setMutableContent(char *Data, uint64_t Size) {
    data = Data;
    size = Size;
    contentMutable = true;
    zeroFill = false;
  }

  Edge &addEdge(EdgeKind K, uint32_t Offset, Symbol &Target, int64_t Addend) {
    return edges.push_back(Edge{&Target, Addend, Offset, K}), edges.back();
  }
  Addr fixupAddress(const Edge &E) const { return address + E.offset; }
};

class Symbol {
public:
  std::string_view name; // empty for anonymous symbols
  Addressable *base;
  uint64_t offset;
  uint64_t size;
  Linkage linkage;
  Scope scope;
  bool callable;
  bool live;
  bool weaklyReferenced = false; // externals only: may resolve to 0
  uint8_t targetFlags = 0;       // the arch's own facts (Arm: Thumb code)

  bool hasName() const { return !name.empty(); }
  bool isDefined() const { return base->isDefined(); }
  bool isExternal() const { return base->addressableKind() == Addressable::Kind::External; }
  bool isAbsolute() const { return base->addressableKind() == Addressable::Kind::Absolute; }
  Block &block() const { return *static_cast<Block *>(base); }
  Section &section() const { return *block().section; }
  Addr address() const { return base->address + offset; }
};

class Section {
public:
  Section(std::string_view N, MemProt P, uint32_t Ord) : name(N), prot(P), ordinal(Ord) {}
  std::string_view name;
  MemProt prot;
  MemLifetime lifetime = MemLifetime::Standard;
  uint32_t ordinal;
  std::vector<Block *> blocks;
  std::vector<Symbol *> symbols; // defined symbols whose block is in this section

  bool empty() const { return blocks.empty(); }
  // Lowest block address, or 0 for an empty section.
  Addr address() const;
};

class LinkGraph {
public:
  LinkGraph(std::string Name, Triple TT, EdgeKindNameFn KindNames);
  LinkGraph(const LinkGraph &) = delete;
  LinkGraph &operator=(const LinkGraph &) = delete;

  const std::string &name() const { return Name; }
  const Triple &triple() const { return TT; }
  // From the arch's registry row (8 for a graph of no known arch).
  unsigned pointerSize() const { return PointerSize; }
  bool bigEndian() const { return BigEndian; }
  // Backend-specific ISA feature bits the reader found (e.g. RISC-V's
  // EF_RISCV_RVC: relaxation may emit compressed instructions).
  uint32_t targetFeatures = 0;
  // The thread-pointer offset of a TLS symbol (defined here or external), set
  // when a session lays out one TLS image for all its graphs
  // (platform/tls_layout.h). Unset, a backend uses this graph's own TLS image.
  std::function<Expected<int64_t>(const Symbol &)> tpOffsetOf;
  const char *edgeKindName(EdgeKind K) const;

  // --- memory owned by the graph --------------------------------------------
  char *allocateBuffer(size_t Size, size_t Align = 16);
  std::string_view allocateString(std::string_view S);
  std::span<char> allocateContent(std::span<const char> Bytes);
  // Keeps an object buffer alive for as long as the graph (names and content
  // point into it).
  void retainBuffer(SharedBytes Buf) { Buffers.push_back(std::move(Buf)); }

  // --- sections -------------------------------------------------------------
  Section &createSection(std::string_view Name, MemProt Prot);
  Section *findSectionByName(std::string_view Name) const;
  const std::vector<Section *> &sections() const { return Sections; }
  void removeSection(Section &S); // must be empty

  // --- blocks ---------------------------------------------------------------
  Block &createContentBlock(Section &S, std::span<const char> Content, Addr A, uint64_t Align, uint64_t AlignOfs);
  Block &createMutableContentBlock(Section &S, std::span<char> Content, Addr A, uint64_t Align, uint64_t AlignOfs);
  Block &createZeroFillBlock(Section &S, uint64_t Size, Addr A, uint64_t Align, uint64_t AlignOfs);
  // Splits B at Offset: returns a new block holding [0, Offset); B keeps
  // [Offset, size). Symbols and edges move with the bytes they refer to.
  Block &splitBlock(Block &B, uint64_t Offset);
  // Splits B at every offset in Offsets (ascending, each inside B) in one
  // pass; returns the blocks in address order (B itself is the last).
  // ExtraEdges: room each piece keeps for edges the caller will add.
  std::vector<Block *> splitBlock(Block &B, std::span<const uint64_t> Offsets, size_t ExtraEdges = 0);
  // Removes B; any symbols still defined in it must be removed first.
  void removeBlock(Block &B);
  template <typename Fn> void forEachBlock(Fn F) const {
    for (auto &S : Sections)
      for (Block *B : S->blocks)
        F(*B);
  }

  // --- symbols --------------------------------------------------------------
  Symbol &addExternalSymbol(std::string_view Name, uint64_t Size, bool WeaklyReferenced);
  Symbol &addAbsoluteSymbol(std::string_view Name, Addr A, uint64_t Size, Linkage L, Scope S, bool Live);
  Symbol &addCommonSymbol(std::string_view Name, Scope S, Section &Sec, uint64_t Size, uint64_t Align, bool Live);
  Symbol &addAnonymousSymbol(Block &B, uint64_t Offset, uint64_t Size, bool Callable, bool Live);
  Symbol &addDefinedSymbol(Block &B, uint64_t Offset, std::string_view Name, uint64_t Size, Linkage L, Scope S,
                           bool Callable, bool Live);
  // Turns a defined or absolute symbol into an external reference to the same name.
  void makeExternal(Symbol &Sym);
  // Turns an external symbol into a definition in B.
  void makeDefined(Symbol &Sym, Block &B, uint64_t Offset, uint64_t Size, Linkage L, Scope S, bool Live);
  // Turns an external symbol into a local absolute one at A.
  void makeAbsolute(Symbol &Sym, Addr A);
  // Moves a defined symbol (and every edge that targets it) to B+Offset.
  void transferDefinedSymbol(Symbol &Sym, Block &B, uint64_t Offset, uint64_t Size);
  void removeExternalSymbol(Symbol &Sym);
  // In one pass (pruning drops many at once).
  template <typename Pred> void removeExternalSymbolsIf(Pred P) { std::erase_if(Externals, P); }
  void removeAbsoluteSymbol(Symbol &Sym);
  void removeDefinedSymbol(Symbol &Sym);

  const std::vector<Symbol *> &externalSymbols() const { return Externals; }
  const std::vector<Symbol *> &absoluteSymbols() const { return Absolutes; }
  template <typename Fn> void forEachDefinedSymbol(Fn F) const {
    for (auto &S : Sections)
      for (Symbol *Sym : S->symbols)
        F(*Sym);
  }
  std::vector<Symbol *> definedSymbols() const;
  size_t blockCount() const;
  // Every block's ordinal is below this: a vector indexed by ordinal covers them.
  uint32_t blockOrdinalBound() const { return NextBlockOrdinal; }

  // The text form of llvm-jitlink's -show-graphs, so dumps can be diffed.
  std::string dump() const;

private:
  Block &newBlock(Section &S, const char *Data, uint64_t Size, Addr A, uint64_t Align, uint64_t AlignOfs, bool Zero);
  Symbol &newSymbol(Addressable &Base, std::string_view Name, uint64_t Offset, uint64_t Size, Linkage L, Scope S,
                    bool Callable, bool Live);
  Addressable &newAddressable(Addressable::Kind K, Addr A);
  static void eraseFrom(std::vector<Symbol *> &V, Symbol *S);

  std::string Name;
  Triple TT;
  unsigned PointerSize = 8;
  bool BigEndian = false;
  EdgeKindNameFn KindNames;
  // A graph is made and dropped per archive member: its sections and their
  // name index cost no allocation each (libc's members have a dozen).
  StablePool<Section> SectionPool;
  std::vector<Section *> Sections;
  NameIndex<Section *> SectionsByName; // null once removed
  std::vector<Symbol *> Externals;
  std::vector<Symbol *> Absolutes;
  StablePool<Block> Blocks;
  StablePool<Symbol> Symbols;
  StablePool<Addressable> Addressables;
  uint32_t NextBlockOrdinal = 0;
  // Arena for strings and content copies.
  std::vector<std::unique_ptr<char[]>> Slabs;
  char *SlabCur = nullptr;
  size_t SlabLeft = 0;
  std::vector<SharedBytes> Buffers;
};

// Little-endian reads and writes of N-byte fields (targets are all LE).

// The one dispatcher: sniffs the format and the arch from an object's header
// (target/target.h) and runs that pair's graph builder.
Expected<std::unique_ptr<LinkGraph>> createLinkGraph(std::string Name, GraphBuffer Buffer);

} // namespace linklab
