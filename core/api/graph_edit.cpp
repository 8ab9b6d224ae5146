#include "api/graph_edit.h"

#include "target/target.h"

namespace linklab::api {

namespace {

const char *const PhaseNames[] = {"pre-prune", "prune", "post-prune", "post-allocation", "pre-fixup", "post-fixup"};

std::string label(const Symbol &S) { return S.hasName() ? std::string(S.name) : "<anonymous>"; }

Expected<Scope> scopeFrom(const std::string &N) {
  for (Scope S : {Scope::Default, Scope::Hidden, Scope::Local})
    if (N == scopeName(S))
      return S;
  return makeError("scope '" + N + "' is not one of " + scopeName(Scope::Default) + ", " + scopeName(Scope::Hidden) +
                   ", " + scopeName(Scope::Local));
}

// The first block with an edge to S, or null.
const Block *firstUser(LinkGraph &G, const Symbol &S) {
  const Block *User = nullptr;
  G.forEachBlock([&](const Block &B) {
    for (const Edge &E : B.edges)
      if (!User && E.target == &S)
        User = &B;
  });
  return User;
}

// Calls F(kind, name) for Keep-Alive and each of G's target's kinds until it returns true.
template <typename Fn> bool forEachKind(const LinkGraph &G, Fn F) {
  if (F(edge::KeepAlive, G.edgeKindName(edge::KeepAlive)))
    return true;
  const TargetInfo *T = findTarget(G.triple());
  for (unsigned K = edge::FirstRelocation; T && K < 256; ++K)
    if (const char *Name = T->arch.edgeKindName(EdgeKind(K)); Name && F(EdgeKind(K), Name))
      return true;
  return false;
}

} // namespace

std::span<const char *const> phaseNames() { return PhaseNames; }
const char *phaseName(LinkPhase P) { return PhaseNames[unsigned(P)]; }

Expected<LinkPhase> parsePhase(const std::string &Name) {
  for (unsigned I = 0; I < std::size(PhaseNames); ++I)
    if (Name == PhaseNames[I])
      return LinkPhase(I);
  std::string All;
  for (const char *N : PhaseNames)
    All += std::string(All.empty() ? "" : ", ") + N;
  return makeError("unknown phase '" + Name + "' (phases: " + All + ")");
}

void addPassAt(PassConfiguration &C, LinkPhase P, LinkGraphPass Pass) {
  switch (P) {
  case LinkPhase::PrePrune: return C.prePrunePasses.push_back(std::move(Pass));
  case LinkPhase::Prune: return (void)C.postPrunePasses.insert(C.postPrunePasses.begin(), std::move(Pass));
  case LinkPhase::PostPrune: return C.postPrunePasses.push_back(std::move(Pass));
  case LinkPhase::PostAllocation: return C.postAllocationPasses.push_back(std::move(Pass));
  case LinkPhase::PreFixup: return C.preFixupPasses.push_back(std::move(Pass));
  case LinkPhase::PostFixup: return C.postFixupPasses.push_back(std::move(Pass));
  }
}

std::vector<std::string> GraphEditor::edgeKindNames() const {
  std::vector<std::string> Names;
  forEachKind(G, [&](EdgeKind, const char *Name) { return Names.push_back(Name), false; });
  return Names;
}

Expected<uint32_t> GraphEditor::addExternalSymbol(const std::string &Name, bool Weak) {
  if (Name.empty())
    return makeError("addExternalSymbol: an external symbol needs a name");
  return Ix.id(G.addExternalSymbol(G.allocateString(Name), 0, Weak));
}

Expected<uint32_t> GraphEditor::addAbsoluteSymbol(const std::string &Name, uint64_t Address,
                                                  const std::string &ScopeName) {
  auto S = scopeFrom(ScopeName);
  if (!S)
    return S.takeError();
  return Ix.id(G.addAbsoluteSymbol(G.allocateString(Name), Address, 0, Linkage::Strong, *S, true));
}

Expected<uint32_t> GraphEditor::addDefinedSymbol(uint32_t BlockId, int64_t Offset, const std::string &Name,
                                                 uint64_t Size, const std::string &LinkageName,
                                                 const std::string &ScopeName, bool Callable, bool Live) {
  auto B = block(BlockId);
  if (!B)
    return B.takeError();
  if (Offset < 0 || uint64_t(Offset) > (*B)->size)
    return makeError(formatv("addDefinedSymbol %s: offset %lld is outside block %u (size %s)", Name.c_str(),
                             (long long)Offset, BlockId, hex((*B)->size).c_str()));
  auto S = scopeFrom(ScopeName);
  if (!S)
    return S.takeError();
  if (LinkageName != "weak" && LinkageName != "strong")
    return makeError("addDefinedSymbol " + Name + ": linkage '" + LinkageName + "' is not strong or weak");
  Linkage L = LinkageName == "weak" ? Linkage::Weak : Linkage::Strong;
  Symbol &Sym = Name.empty()
                    ? G.addAnonymousSymbol(**B, uint64_t(Offset), Size, Callable, Live)
                    : G.addDefinedSymbol(**B, uint64_t(Offset), G.allocateString(Name), Size, L, *S, Callable, Live);
  return Ix.id(Sym);
}

Error GraphEditor::removeSymbol(uint32_t Id) {
  auto S = symbol(Id);
  if (!S)
    return S.takeError();
  if (const Block *User = firstUser(G, **S))
    return makeError(formatv("removeSymbol: symbol %u (%s) is still the target of an edge in block %u of section %s",
                             Id, label(**S).c_str(), Ix.id(*User), std::string(User->section->name).c_str()));
  Symbol &Sym = **S;
  Ix.forget(Sym);
  if (Sym.isDefined())
    G.removeDefinedSymbol(Sym);
  else if (Sym.isExternal())
    G.removeExternalSymbol(Sym);
  else
    G.removeAbsoluteSymbol(Sym);
  return Error::success();
}

Error GraphEditor::makeExternal(uint32_t Id) {
  auto S = symbol(Id);
  if (!S)
    return S.takeError();
  if (!(*S)->hasName())
    return makeError(formatv("makeExternal: symbol %u is anonymous", Id));
  if (P >= LinkPhase::PostAllocation)
    return tooLate("makeExternal");
  G.makeExternal(**S);
  return Error::success();
}

Error GraphEditor::setLive(uint32_t Id, bool Live) {
  auto S = symbol(Id);
  if (!S)
    return S.takeError();
  (*S)->live = Live;
  return Error::success();
}

Expected<uint32_t> GraphEditor::addEdge(uint32_t BlockId, const std::string &Kind, int64_t Offset, uint32_t TargetId,
                                        int64_t Addend) {
  auto B = block(BlockId);
  if (!B)
    return B.takeError();
  auto K = kind(Kind);
  if (!K)
    return K.takeError();
  auto T = symbol(TargetId);
  if (!T)
    return T.takeError();
  if (Offset < 0 || uint64_t(Offset) >= (*B)->size)
    return makeError(formatv("addEdge %s: offset %lld is outside block %u (size %s)", Kind.c_str(), (long long)Offset,
                             BlockId, hex((*B)->size).c_str()));
  (*B)->addEdge(*K, uint32_t(Offset), **T, Addend);
  return uint32_t((*B)->edges.size() - 1);
}

Error GraphEditor::setEdgeKind(uint32_t BlockId, uint32_t Index, const std::string &Kind) {
  auto E = edge(BlockId, Index);
  if (!E)
    return E.takeError();
  auto K = kind(Kind);
  if (!K)
    return K.takeError();
  (*E)->kind = *K;
  return Error::success();
}

Error GraphEditor::setEdgeTarget(uint32_t BlockId, uint32_t Index, uint32_t TargetId) {
  auto E = edge(BlockId, Index);
  if (!E)
    return E.takeError();
  auto T = symbol(TargetId);
  if (!T)
    return T.takeError();
  (*E)->target = *T;
  return Error::success();
}

Error GraphEditor::setEdgeAddend(uint32_t BlockId, uint32_t Index, int64_t Addend) {
  auto E = edge(BlockId, Index);
  if (!E)
    return E.takeError();
  (*E)->addend = Addend;
  return Error::success();
}

Error GraphEditor::removeEdge(uint32_t BlockId, uint32_t Index) {
  auto E = edge(BlockId, Index);
  if (!E)
    return E.takeError();
  auto &Es = (*block(BlockId))->edges;
  Es.erase(Es.begin() + Index);
  return Error::success();
}

Error GraphEditor::createSection(const std::string &Name, const std::string &Prot) {
  if (P >= LinkPhase::PostAllocation)
    return tooLate("createSection");
  if (G.findSectionByName(Name))
    return makeError("createSection: section " + Name + " already exists");
  std::optional<MemProt> MP = parseProt(Prot);
  if (!MP)
    return makeError("createSection " + Name + ": protection '" + Prot + "' is not like \"R-X\"");
  G.createSection(G.allocateString(Name), *MP);
  return Error::success();
}

Expected<uint32_t> GraphEditor::addContentBlock(const std::string &SectionName, std::span<const char> Content,
                                                uint64_t Align) {
  if (P >= LinkPhase::PostAllocation)
    return tooLate("addContentBlock");
  Section *S = G.findSectionByName(SectionName);
  if (!S)
    return makeError("addContentBlock: no section named " + SectionName);
  if (Align == 0 || (Align & (Align - 1)))
    return makeError("addContentBlock: alignment " + std::to_string(Align) + " is not a power of two");
  return Ix.id(G.createContentBlock(*S, G.allocateContent(Content), 0, Align, 0));
}

Error GraphEditor::setBlockContent(uint32_t BlockId, std::span<const char> Content) {
  auto B = block(BlockId);
  if (!B)
    return B.takeError();
  if (Content.size() != (*B)->size && P >= LinkPhase::PostAllocation)
    return makeError(formatv("setBlockContent: block %u has its address and size; the new content must keep %s bytes",
                             BlockId, hex((*B)->size).c_str()));
  for (const Edge &E : (*B)->edges)
    if (E.offset >= Content.size())
      return makeError(formatv("setBlockContent: block %u has an edge at offset %s beyond the new size %s", BlockId,
                               hex(E.offset).c_str(), hex(Content.size()).c_str()));
  std::span<char> Copy = G.allocateContent(Content);
  (*B)->setMutableContent(Copy.data(), Copy.size());
  return Error::success();
}

Error GraphEditor::removeBlock(uint32_t BlockId) {
  auto B = block(BlockId);
  if (!B)
    return B.takeError();
  if (P >= LinkPhase::PostAllocation)
    return tooLate("removeBlock");
  for (Symbol *S : (*B)->section->symbols)
    if (&S->block() == *B)
      return makeError(formatv("removeBlock: block %u still defines symbol %u (%s); remove its symbols first", BlockId,
                               Ix.id(*S), label(*S).c_str()));
  Ix.forget(**B);
  G.removeBlock(**B);
  return Error::success();
}

Error GraphEditor::tooLate(const char *Op) const {
  return makeError(std::string(Op) + ": not allowed at " + phaseName(P) + ": blocks already have addresses");
}

Expected<Block *> GraphEditor::block(uint32_t Id) {
  if (Block *B = Ix.block(Id))
    return B;
  return makeError(formatv("graph %s: no block with id %u (ids come from data() of this view)", G.name().c_str(), Id));
}

Expected<Symbol *> GraphEditor::symbol(uint32_t Id) {
  if (Symbol *S = Ix.symbol(Id))
    return S;
  return makeError(formatv("graph %s: no symbol with id %u (ids come from data() of this view)", G.name().c_str(), Id));
}

Expected<Edge *> GraphEditor::edge(uint32_t BlockId, uint32_t Index) {
  auto B = block(BlockId);
  if (!B)
    return B.takeError();
  if (Index >= (*B)->edges.size())
    return makeError(
        formatv("graph %s: block %u has %zu edges, no edge %u", G.name().c_str(), BlockId, (*B)->edges.size(), Index));
  return &(*B)->edges[Index];
}

Expected<EdgeKind> GraphEditor::kind(const std::string &Name) const {
  EdgeKind Found{};
  if (forEachKind(G, [&](EdgeKind K, const char *N) { return Name == N && (Found = K, true); }))
    return Found;
  return makeError(formatv("graph %s (%s): '%s' is not an edge kind of this target", G.name().c_str(),
                           fullTriple(G.triple()).c_str(), Name.c_str()));
}

} // namespace linklab::api
