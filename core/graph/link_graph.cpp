#include "graph/link_graph.h"

#include "target/target.h"

#include <algorithm>
#include <cassert>

namespace linklab {

std::string protString(MemProt P) {
  std::string S = "---";
  if (hasProt(P, MemProt::Read))
    S[0] = 'R';
  if (hasProt(P, MemProt::Write))
    S[1] = 'W';
  if (hasProt(P, MemProt::Exec))
    S[2] = 'X';
  return S;
}

std::optional<MemProt> parseProt(std::string_view S) {
  const char Letters[] = "RWX";
  if (S.size() != 3)
    return std::nullopt;
  MemProt P = MemProt::None;
  for (size_t I = 0; I < 3; ++I)
    if (S[I] == Letters[I])
      P = P | MemProt(1 << I);
    else if (S[I] != '-')
      return std::nullopt;
  return P;
}

const char *linkageName(Linkage L) { return L == Linkage::Strong ? "strong" : "weak"; }

const char *scopeName(Scope S) {
  switch (S) {
  case Scope::Default: return "default";
  case Scope::Hidden: return "hidden";
  case Scope::Local: return "local";
  }
  return "?";
}

Addr Section::address() const {
  if (blocks.empty())
    return 0;
  Addr A = ~Addr(0);
  for (Block *B : blocks)
    A = std::min(A, B->address);
  return A;
}

std::span<char> Block::mutableContent(LinkGraph &G) {
  if (!contentMutable) {
    char *Buf = G.allocateBuffer(size ? size : 1, 16);
    if (zeroFill)
      std::memset(Buf, 0, size);
    else
      std::memcpy(Buf, data, size);
    data = Buf;
    contentMutable = true;
    zeroFill = false;
  }
  return {const_cast<char *>(data), size_t(size)};
}

LinkGraph::LinkGraph(std::string N, Triple T, EdgeKindNameFn K) : Name(std::move(N)), TT(std::move(T)), KindNames(K) {
  if (TT.arch != Arch::Unknown) {
    PointerSize = archRow(TT.arch).pointerSize;
    BigEndian = archRow(TT.arch).bigEndian;
  }
}

const char *LinkGraph::edgeKindName(EdgeKind K) const {
  if (K == edge::Invalid)
    return "INVALID RELOCATION";
  if (K == edge::KeepAlive)
    return "Keep-Alive";
  const char *N = KindNames ? KindNames(K) : nullptr;
  return N ? N : "<Unrecognized edge kind>";
}

char *LinkGraph::allocateBuffer(size_t Size, size_t Align) {
  auto Pad = [&] { return (Align - (reinterpret_cast<uintptr_t>(SlabCur) & (Align - 1))) & (Align - 1); };
  if (!SlabCur || SlabLeft < Size + Pad()) {
    // Slabs double from 4 KiB: most graphs (an archive member each) are
    // small, and a fixed 64 KiB per graph was most of a runtime link's memory.
    size_t SlabSize = std::max<size_t>(Size + Align, std::min<size_t>(size_t(4096) << Slabs.size(), 1 << 20));
    Slabs.emplace_back(new char[SlabSize]);
    SlabCur = Slabs.back().get();
    SlabLeft = SlabSize;
  }
  size_t P = Pad();
  char *Out = SlabCur + P;
  SlabCur += P + Size;
  SlabLeft -= P + Size;
  return Out;
}

std::string_view LinkGraph::allocateString(std::string_view S) {
  char *Buf = allocateBuffer(S.size() + 1, 1);
  if (!S.empty()) // an empty view may have no bytes at all
    std::memcpy(Buf, S.data(), S.size());
  Buf[S.size()] = 0;
  return {Buf, S.size()};
}

std::span<char> LinkGraph::allocateContent(std::span<const char> Bytes) {
  char *Buf = allocateBuffer(Bytes.size() ? Bytes.size() : 1, 16);
  if (!Bytes.empty())
    std::memcpy(Buf, Bytes.data(), Bytes.size());
  return {Buf, Bytes.size()};
}

Section &LinkGraph::createSection(std::string_view N, MemProt Prot) {
  N = allocateString(N);
  Section &S = SectionPool.emplace_back(N, Prot, uint32_t(Sections.size()));
  Sections.push_back(&S);
  if (!SectionsByName.insert(N, &S))
    *SectionsByName.find(N) = &S; // the newest of a name is the one found, as before
  return S;
}

Section *LinkGraph::findSectionByName(std::string_view N) const {
  Section *const *S = SectionsByName.find(N);
  return S ? *S : nullptr;
}

void LinkGraph::removeSection(Section &S) {
  assert(S.blocks.empty() && S.symbols.empty() && "removing a non-empty section");
  if (Section **Named = SectionsByName.find(S.name); Named && *Named == &S)
    *Named = nullptr;
  Sections.erase(std::find(Sections.begin(), Sections.end(), &S));
}

Block &LinkGraph::newBlock(Section &S, const char *Data, uint64_t Size, Addr A, uint64_t Align, uint64_t AlignOfs,
                           bool Zero) {
  Block &B = Blocks.emplace_back(S, Data, Size, A, Align, AlignOfs, Zero);
  B.ordinal = NextBlockOrdinal++;
  S.blocks.push_back(&B);
  return B;
}

Block &LinkGraph::createContentBlock(Section &S, std::span<const char> C, Addr A, uint64_t Align, uint64_t AlignOfs) {
  return newBlock(S, C.data(), C.size(), A, Align, AlignOfs, false);
}

Block &LinkGraph::createMutableContentBlock(Section &S, std::span<char> C, Addr A, uint64_t Align, uint64_t AlignOfs) {
  Block &B = newBlock(S, C.data(), C.size(), A, Align, AlignOfs, false);
  B.contentMutable = true;
  return B;
}

Block &LinkGraph::createZeroFillBlock(Section &S, uint64_t Size, Addr A, uint64_t Align, uint64_t AlignOfs) {
  return newBlock(S, nullptr, Size, A, Align, AlignOfs, true);
}

Block &LinkGraph::splitBlock(Block &B, uint64_t Offset) {
  const uint64_t Offsets[] = {Offset};
  return *splitBlock(B, Offsets).front();
}

std::vector<Block *> LinkGraph::splitBlock(Block &B, std::span<const uint64_t> Offsets, size_t ExtraEdges) {
  // Piece I covers [Starts[I], Starts[I+1]) of the original block; the last
  // piece keeps the original Block object so references to it stay valid.
  std::vector<uint64_t> Starts{0};
  for (uint64_t O : Offsets) {
    assert(O > Starts.back() && O < B.size && "split offsets must ascend inside the block");
    Starts.push_back(O);
  }
  const uint64_t Base = Starts.back();
  std::vector<Block *> Pieces;
  for (size_t I = 0; I + 1 < Starts.size(); ++I) {
    uint64_t Size = Starts[I + 1] - Starts[I];
    Block &P = B.zeroFill ? createZeroFillBlock(*B.section, Size, B.address + Starts[I], B.alignment, 0)
                          : createContentBlock(*B.section, {B.data + Starts[I], size_t(Size)}, B.address + Starts[I],
                                               B.alignment, 0);
    P.alignmentOffset = (B.alignmentOffset + Starts[I]) % B.alignment;
    P.contentMutable = B.contentMutable;
    Pieces.push_back(&P);
  }
  // The section lists the pieces where B was, in address order (layouts
  // then find its blocks sorted).
  auto &List = B.section->blocks;
  std::rotate(std::find(List.begin(), List.end(), &B), List.end() - Pieces.size(), List.end());
  Pieces.push_back(&B);
  auto PieceOf = [&](uint64_t Off) {
    return size_t(std::upper_bound(Starts.begin(), Starts.end(), Off) - Starts.begin()) - 1;
  };

  // Each piece's edges in one allocation (an .eh_frame splits into thousands).
  std::vector<uint32_t> PieceOfEdge, Count(Pieces.size());
  PieceOfEdge.reserve(B.edges.size());
  for (const Edge &E : B.edges)
    ++Count[PieceOfEdge.emplace_back(uint32_t(PieceOf(E.offset)))];
  std::vector<Edge> Kept;
  Kept.reserve(Count.back() + ExtraEdges);
  for (size_t I = 0; I + 1 < Pieces.size(); ++I)
    Pieces[I]->edges.reserve(Pieces[I]->edges.size() + Count[I] + ExtraEdges);
  for (size_t K = 0; K < B.edges.size(); ++K) {
    Edge E = B.edges[K];
    size_t I = PieceOfEdge[K];
    E.offset -= uint32_t(Starts[I]);
    (I + 1 == Pieces.size() ? Kept : Pieces[I]->edges).push_back(E);
  }
  B.edges = std::move(Kept);
  for (Symbol *Sym : B.section->symbols) {
    if (Sym->base != &B)
      continue;
    size_t I = PieceOf(Sym->offset);
    uint64_t End = I + 1 < Starts.size() ? Starts[I + 1] : B.size;
    Sym->offset -= Starts[I];
    Sym->size = std::min(Sym->size, End - Starts[I] - Sym->offset);
    Sym->base = Pieces[I];
  }
  if (!B.zeroFill)
    B.data += Base;
  B.size -= Base;
  B.address += Base;
  B.alignmentOffset = (B.alignmentOffset + Base) % B.alignment;
  return Pieces;
}

void LinkGraph::removeBlock(Block &B) {
  auto &V = B.section->blocks;
  V.erase(std::find(V.begin(), V.end(), &B));
  B.edges.clear();
  B.edges.shrink_to_fit();
}

Addressable &LinkGraph::newAddressable(Addressable::Kind K, Addr A) { return Addressables.emplace_back(K, A); }

Symbol &LinkGraph::newSymbol(Addressable &Base, std::string_view N, uint64_t Offset, uint64_t Size, Linkage L, Scope S,
                             bool Callable, bool Live) {
  return Symbols.emplace_back(Symbol{N, &Base, Offset, Size, L, S, Callable, Live});
}

Symbol &LinkGraph::addExternalSymbol(std::string_view N, uint64_t Size, bool WeakRef) {
  Symbol &Sym = newSymbol(newAddressable(Addressable::Kind::External, 0), N, 0, Size, Linkage::Strong, Scope::Default,
                          false, false);
  Sym.weaklyReferenced = WeakRef;
  Externals.push_back(&Sym);
  return Sym;
}

Symbol &LinkGraph::addAbsoluteSymbol(std::string_view N, Addr A, uint64_t Size, Linkage L, Scope S, bool Live) {
  Symbol &Sym = newSymbol(newAddressable(Addressable::Kind::Absolute, A), N, 0, Size, L, S, false, Live);
  Absolutes.push_back(&Sym);
  return Sym;
}

Symbol &LinkGraph::addCommonSymbol(std::string_view N, Scope S, Section &Sec, uint64_t Size, uint64_t Align,
                                   bool Live) {
  Block &B = createZeroFillBlock(Sec, Size, 0, Align, 0);
  return addDefinedSymbol(B, 0, N, Size, Linkage::Weak, S, false, Live);
}

Symbol &LinkGraph::addAnonymousSymbol(Block &B, uint64_t Offset, uint64_t Size, bool Callable, bool Live) {
  Symbol &Sym = newSymbol(B, {}, Offset, Size, Linkage::Strong, Scope::Local, Callable, Live);
  B.section->symbols.push_back(&Sym);
  return Sym;
}

Symbol &LinkGraph::addDefinedSymbol(Block &B, uint64_t Offset, std::string_view N, uint64_t Size, Linkage L, Scope S,
                                    bool Callable, bool Live) {
  Symbol &Sym = newSymbol(B, N, Offset, Size, L, S, Callable, Live);
  B.section->symbols.push_back(&Sym);
  return Sym;
}

void LinkGraph::eraseFrom(std::vector<Symbol *> &V, Symbol *S) {
  auto It = std::find(V.begin(), V.end(), S);
  assert(It != V.end() && "symbol not in list");
  V.erase(It);
}

void LinkGraph::makeExternal(Symbol &Sym) {
  if (Sym.isDefined())
    eraseFrom(Sym.section().symbols, &Sym);
  else if (Sym.isAbsolute())
    eraseFrom(Absolutes, &Sym);
  else
    return;
  Sym.base = &newAddressable(Addressable::Kind::External, 0);
  Sym.offset = 0;
  Sym.linkage = Linkage::Strong;
  Sym.scope = Scope::Default;
  Externals.push_back(&Sym);
}

void LinkGraph::makeDefined(Symbol &Sym, Block &B, uint64_t Offset, uint64_t Size, Linkage L, Scope S, bool Live) {
  assert(Sym.isExternal() && "makeDefined on a non-external symbol");
  eraseFrom(Externals, &Sym);
  Sym.base = &B;
  Sym.offset = Offset;
  Sym.size = Size;
  Sym.linkage = L;
  Sym.scope = S;
  Sym.live = Live;
  B.section->symbols.push_back(&Sym);
}

void LinkGraph::makeAbsolute(Symbol &Sym, Addr A) {
  assert(Sym.isExternal() && "makeAbsolute on a non-external symbol");
  eraseFrom(Externals, &Sym);
  Sym.base = &newAddressable(Addressable::Kind::Absolute, A);
  Sym.offset = 0;
  Sym.linkage = Linkage::Strong;
  Sym.scope = Scope::Local;
  Absolutes.push_back(&Sym);
}

void LinkGraph::transferDefinedSymbol(Symbol &Sym, Block &B, uint64_t Offset, uint64_t Size) {
  assert(Sym.isDefined() && "transferDefinedSymbol on an undefined symbol");
  eraseFrom(Sym.section().symbols, &Sym);
  Sym.base = &B;
  Sym.offset = Offset;
  Sym.size = Size;
  B.section->symbols.push_back(&Sym);
}

void LinkGraph::removeExternalSymbol(Symbol &Sym) { eraseFrom(Externals, &Sym); }
void LinkGraph::removeAbsoluteSymbol(Symbol &Sym) { eraseFrom(Absolutes, &Sym); }
void LinkGraph::removeDefinedSymbol(Symbol &Sym) { eraseFrom(Sym.section().symbols, &Sym); }

std::vector<Symbol *> LinkGraph::definedSymbols() const {
  std::vector<Symbol *> Out;
  forEachDefinedSymbol([&](Symbol &S) { Out.push_back(&S); });
  return Out;
}

size_t LinkGraph::blockCount() const {
  size_t N = 0;
  for (auto &S : Sections)
    N += S->blocks.size();
  return N;
}

Expected<std::unique_ptr<LinkGraph>> createLinkGraph(std::string Name, GraphBuffer Buffer) {
  auto T = identifyObject(Name, Buffer.span());
  if (!T)
    return T.takeError();
  return (*T)->createGraph(**T, std::move(Name), std::move(Buffer));
}

} // namespace linklab
