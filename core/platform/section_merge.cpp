#include "platform/section_merge.h"

#include "target/target.h"

#include <algorithm>
#include <cstring>
#include <unordered_set>

namespace linklab {

namespace {
const std::string_view StartPrefix = "__start_", StopPrefix = "__stop_";

// "__start_SEC" -> "SEC"; empty if Name brackets no section.
std::string_view bracketedSection(std::string_view Name) {
  for (auto P : {StartPrefix, StopPrefix})
    if (Name.starts_with(P) && SectionMerger::isCIdentifier(Name.substr(P.size())))
      return Name.substr(P.size());
  return {};
}
} // namespace

bool SectionMerger::isCIdentifier(std::string_view N) {
  auto Alpha = [](char C) { return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || C == '_'; };
  if (N.empty() || !Alpha(N[0]))
    return false;
  return std::all_of(N.begin(), N.end(), [&](char C) { return Alpha(C) || (C >= '0' && C <= '9'); });
}

std::string SectionMerger::uniqueName(std::string_view Section) {
  return formatv("__linklab_%.*s.%llu", int(Section.size()), Section.data(), (unsigned long long)NextName++);
}

Error SectionMerger::notifyAdded(ResourceKey K, LinkGraph &G) {
  // __start_SEC/__stop_SEC are an ELF convention (GNU ld's); MachO and COFF
  // sections stay in their object's graph, as llvm-jitlink keeps them.
  if (&G == Own || G.triple().format != ObjectFormat::ELF)
    return Error::success();
  // Code sections are left alone: their .eh_frame records point into them.
  std::vector<Section *> Moving;
  std::unordered_set<Block *> MovingBlocks;
  for (auto &Sec : G.sections())
    if (Sec->lifetime == MemLifetime::Standard && !hasProt(Sec->prot, MemProt::Exec) && !Sec->blocks.empty() &&
        isCIdentifier(Sec->name)) {
      Moving.push_back(Sec);
      MovingBlocks.insert(Sec->blocks.begin(), Sec->blocks.end());
    }
  if (Moving.empty())
    return Error::success();

  // Everything the fragments define, and everything they reach in this
  // object, gets a name the session can resolve.
  auto Nameable = [&](Symbol &S, std::string_view Section) {
    if (!S.hasName() || S.scope == Scope::Local) {
      S.name = G.allocateString(uniqueName(Section));
      S.scope = Scope::Hidden;
    }
  };
  for (Section *Sec : Moving) {
    for (Symbol *S : Sec->symbols)
      Nameable(*S, Sec->name);
    for (Block *B : Sec->blocks)
      for (Edge &E : B->edges)
        if (E.target->isDefined() && !MovingBlocks.count(&E.target->block()))
          Nameable(*E.target, Sec->name);
  }

  for (Section *Sec : Moving) {
    OutputSection &Out = Sections[std::string(Sec->name)];
    for (Block *B : Sec->blocks) {
      if (B->alignmentOffset)
        return makeError(formatv("%s: section %s: a block aligned at an offset (%llu) cannot be merged",
                                 G.name().c_str(), std::string(Sec->name).c_str(),
                                 (unsigned long long)B->alignmentOffset));
      Fragment F{K, G.name(), Sec->prot, B->alignment, B->size, B->isZeroFill(), {}, {}, {}};
      if (!F.zeroFill)
        F.content.assign(B->content().begin(), B->content().end());
      for (Symbol *S : Sec->symbols)
        if (&S->block() == B) {
          F.symbols.push_back({std::string(S->name), S->offset, S->size, S->linkage, S->scope, S->callable});
          FragmentSymbols[std::string(S->name)] = {std::string(Sec->name), K};
        }
      for (const Edge &E : B->edges) {
        Symbol &T = *E.target;
        F.edges.push_back({E.offset, E.kind, E.addend, std::string(T.name), T.isExternal() && T.weaklyReferenced,
                           T.isAbsolute() ? std::optional<Addr>(T.address()) : std::nullopt});
      }
      Out.fragments.push_back(std::move(F));
    }
  }
  // The object now refers to those definitions by name.
  for (Section *Sec : Moving) {
    for (Symbol *S : std::vector<Symbol *>(Sec->symbols))
      G.makeExternal(*S);
    for (Block *B : std::vector<Block *>(Sec->blocks))
      G.removeBlock(*B);
    G.removeSection(*Sec);
  }
  return Error::success();
}

bool SectionMerger::claims(std::string_view Name) const {
  return !bracketedSection(Name).empty() || FragmentSymbols.count(Name);
}

Error SectionMerger::tryToGenerate(Session &S, const std::vector<std::string> &Names) {
  std::set<ResourceKey> Wanted = Started;
  for (auto &N : Names) {
    if (auto It = FragmentSymbols.find(N); It != FragmentSymbols.end())
      Wanted.insert(It->second.second);
    if (auto Sec = bracketedSection(N); !Sec.empty())
      if (auto It = Sections.find(Sec); It != Sections.end()) {
        if (It->second.layouts > 1)
          return makeError(formatv("%s: section %.*s was linked in parts (objects linked by later lookups), so "
                                   "no one range spans it",
                                   N.c_str(), int(Sec.size()), Sec.data()));
        It->second.bracketsAsked = true;
      }
  }
  for (auto &[Name, Out] : Sections)
    if (Error E = layOut(S, Name, Out, Wanted))
      return E;
  return Error::success();
}

Error SectionMerger::layOut(Session &S, const std::string &Name, OutputSection &Out,
                            const std::set<ResourceKey> &Wanted) {
  std::vector<Fragment *> Frags;
  for (auto &F : Out.fragments)
    if (!F.merged && Wanted.count(F.origin))
      Frags.push_back(&F);
  if (Frags.empty())
    return Error::success();
  if (Out.layouts && Out.bracketsAsked)
    return makeError(formatv("%s: has contents in section %s but was linked after __start_%s/__stop_%s were laid "
                             "out (linked by a later lookup)",
                             Frags[0]->objectName.c_str(), Name.c_str(), Name.c_str(), Name.c_str()));
  auto G = std::make_unique<LinkGraph>(formatv("<section %s>", Name.c_str()), S.triple(), edgeKindNamesOf(S.triple()));
  // Link order, each fragment at its own alignment, as a static linker
  // concatenates input sections into one output section.
  MemProt Prot = MemProt::None;
  uint64_t Size = 0, Align = 1;
  std::vector<uint64_t> Offsets;
  bool AllZero = true;
  for (Fragment *F : Frags) {
    Size = alignTo(Size, F->alignment);
    Offsets.push_back(Size);
    Size += F->size;
    Align = std::max(Align, F->alignment);
    Prot = Prot | F->prot;
    AllZero &= F->zeroFill;
  }
  Section &Sec = G->createSection(G->allocateString(Name), Prot);
  uint64_t BlockSize = std::max<uint64_t>(Size, 1); // a block needs a byte to have an address
  Block *B;
  if (AllZero) {
    B = &G->createZeroFillBlock(Sec, BlockSize, 0, Align, 0);
  } else {
    char *Buf = G->allocateBuffer(BlockSize);
    std::memset(Buf, 0, BlockSize);
    for (size_t I = 0; I < Frags.size(); ++I)
      std::copy(Frags[I]->content.begin(), Frags[I]->content.end(), Buf + Offsets[I]);
    B = &G->createMutableContentBlock(Sec, {Buf, size_t(BlockSize)}, 0, Align, 0);
  }
  std::unordered_map<std::string, Symbol *> ByName;
  for (size_t I = 0; I < Frags.size(); ++I)
    for (auto &FS : Frags[I]->symbols)
      ByName[FS.name] = &G->addDefinedSymbol(*B, Offsets[I] + FS.offset, G->allocateString(FS.name), FS.size,
                                             FS.linkage, FS.scope, FS.callable, false);
  for (size_t I = 0; I < Frags.size(); ++I)
    for (auto &FE : Frags[I]->edges) {
      Symbol *Target;
      if (FE.absolute)
        Target =
            &G->addAbsoluteSymbol(G->allocateString(FE.target), *FE.absolute, 0, Linkage::Strong, Scope::Local, false);
      else if (auto It = ByName.find(FE.target); It != ByName.end())
        Target = It->second;
      else
        Target = ByName[FE.target] = &G->addExternalSymbol(G->allocateString(FE.target), 0, FE.weak);
      B->addEdge(FE.kind, uint32_t(Offsets[I] + FE.offset), *Target, FE.addend);
    }
  if (!Out.layouts) {
    G->addDefinedSymbol(*B, 0, G->allocateString(std::string(StartPrefix) + Name), 0, Linkage::Strong, Scope::Default,
                        false, true);
    G->addDefinedSymbol(*B, Size, G->allocateString(std::string(StopPrefix) + Name), 0, Linkage::Strong, Scope::Default,
                        false, true);
  }
  for (Fragment *F : Frags) {
    F->merged = true;
    for (auto &FS : F->symbols)
      FragmentSymbols.erase(FS.name);
  }
  ++Out.layouts;
  Own = G.get();
  auto Key = S.addGraph(std::move(G), ObjectKind::Runtime);
  Own = nullptr;
  return Key ? Error::success() : Key.takeError();
}

} // namespace linklab
