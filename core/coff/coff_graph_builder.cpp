#include "coff/coff_graph_builder.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>
#include <unordered_map>

namespace linklab {

namespace coff {
enum : uint32_t {
  IMAGE_SCN_TYPE_NO_PAD = 0x8,
  IMAGE_SCN_CNT_UNINITIALIZED_DATA = 0x80,
  IMAGE_SCN_LNK_INFO = 0x200,
  IMAGE_SCN_LNK_COMDAT = 0x1000,
  IMAGE_SCN_LNK_NRELOC_OVFL = 0x01000000,
  IMAGE_SCN_MEM_DISCARDABLE = 0x02000000,
  IMAGE_SCN_MEM_EXECUTE = 0x20000000,
  IMAGE_SCN_MEM_READ = 0x40000000,
  IMAGE_SCN_MEM_WRITE = 0x80000000u,
};
enum : uint8_t {
  IMAGE_SYM_CLASS_EXTERNAL = 2,
  IMAGE_SYM_CLASS_STATIC = 3,
  IMAGE_SYM_CLASS_LABEL = 6,
  IMAGE_SYM_CLASS_FILE = 103,
  IMAGE_SYM_CLASS_WEAK_EXTERNAL = 105,
};
enum : uint8_t {
  IMAGE_COMDAT_SELECT_NODUPLICATES = 1,
  IMAGE_COMDAT_SELECT_ANY,
  IMAGE_COMDAT_SELECT_SAME_SIZE,
  IMAGE_COMDAT_SELECT_EXACT_MATCH,
  IMAGE_COMDAT_SELECT_ASSOCIATIVE,
  IMAGE_COMDAT_SELECT_LARGEST,
  IMAGE_COMDAT_SELECT_NEWEST,
};
constexpr uint32_t SymbolSize = 18, SectionHeaderSize = 40, RelocationSize = 10;
} // namespace coff

static uint16_t rd16(const char *P) { return readLE<uint16_t>(P); }
static uint32_t rd32(const char *P) { return readLE<uint32_t>(P); }

// COFF objects carry no magic: the machine field says what they are (the
// registry asks the formats with magic numbers first).
static bool isCOFF(std::span<const char> B) {
  if (B.size() < 2)
    return false;
  uint16_t M = rd16(B.data());
  return M == 0x8664 || M == 0xaa64 || M == 0x14c || M == 0x1c4;
}

static Expected<ObjectIdentity> identifyCOFF(const std::string &Name, std::span<const char> B) {
  if (B.size() < 20)
    return makeError(formatv("%s: truncated COFF header (%zu bytes, need 20)", Name.c_str(), B.size()));
  uint16_t M = rd16(B.data());
  return ObjectIdentity{M, uint8_t(M == 0x14c || M == 0x1c4 ? 4 : 8), false};
}

static const char *machineName(uint32_t M) {
  switch (M) {
  case 0x8664: return "IMAGE_FILE_MACHINE_AMD64";
  case 0xaa64: return "IMAGE_FILE_MACHINE_ARM64";
  case 0x14c: return "IMAGE_FILE_MACHINE_I386";
  case 0x1c4: return "IMAGE_FILE_MACHINE_ARMNT";
  default: return nullptr;
  }
}

extern const ObjectFormatRow COFFFormat = {ObjectFormat::COFF, "COFF", "---coff", isCOFF, identifyCOFF, machineName};

Expected<std::unique_ptr<LinkGraph>> COFFGraphBuilder::build(const TargetInfo &T, const char *TripleName,
                                                             std::string Name, GraphBuffer Buffer,
                                                             COFFRelocationMapper Map) {
  std::span<const char> Bytes = Buffer.span();
  COFFGraphBuilder B(Name, Bytes, T, Map);
  B.G = std::make_unique<LinkGraph>(std::move(Name), Triple::parse(TripleName), T.arch.edgeKindName);
  B.G->retainBuffer(std::move(Buffer));
  if (Error E = B.parseHeaders())
    return E;
  if (Error E = B.graphifySections())
    return E;
  if (Error E = B.graphifySymbols())
    return E;
  if (Error E = B.addRelocations())
    return E;
  return std::move(B.G);
}

Expected<std::string_view> COFFGraphBuilder::stringAt(uint32_t Offset) const {
  if (Offset < 4 || Offset >= Strings.size())
    return error(formatv("string table offset %s is outside the string table (size %s)", hex(Offset).c_str(),
                         hex(Strings.size()).c_str()));
  size_t End = Strings.find('\0', Offset);
  if (End == std::string_view::npos)
    return error(formatv("string at offset %s is not NUL-terminated", hex(Offset).c_str()));
  return Strings.substr(Offset, End - Offset);
}

Expected<std::string_view> COFFGraphBuilder::symbolName(const char *E) const {
  if (rd32(E) == 0)
    return stringAt(rd32(E + 4));
  return std::string_view(E, strnlen(E, 8));
}

Error COFFGraphBuilder::parseHeaders() {
  uint16_t NSections = rd16(Bytes.data() + 2), OptSize = rd16(Bytes.data() + 16);
  SymtabOffset = rd32(Bytes.data() + 8);
  NumSymbols = rd32(Bytes.data() + 12);
  if (OptSize)
    return error("has an optional header: an image, not a relocatable object");
  uint64_t SymtabEnd = uint64_t(SymtabOffset) + uint64_t(NumSymbols) * coff::SymbolSize;
  if (NumSymbols && SymtabEnd + 4 > Bytes.size())
    return error(formatv("symbol table (%u entries at offset %s) extends past the end of the file", NumSymbols,
                         hex(SymtabOffset).c_str()));
  if (NumSymbols) {
    uint32_t StrSize = rd32(Bytes.data() + SymtabEnd);
    if (StrSize < 4 || StrSize > Bytes.size() - SymtabEnd)
      return error(formatv("string table size %s at offset %s extends past the end of the file", hex(StrSize).c_str(),
                           hex(SymtabEnd).c_str()));
    Strings = {Bytes.data() + SymtabEnd, StrSize};
  }
  if (20 + uint64_t(NSections) * coff::SectionHeaderSize > Bytes.size())
    return error(formatv("%u section headers extend past the end of the file", NSections));
  for (uint16_t I = 0; I < NSections; ++I) {
    const char *H = Bytes.data() + 20 + I * coff::SectionHeaderSize;
    SectionHeader S;
    S.name = {H, strnlen(H, 8)};
    if (S.name.starts_with("/")) { // a long name: "/<decimal offset>" into the string table
      uint32_t Off = 0;
      for (char C : S.name.substr(1)) {
        if (C < '0' || C > '9')
          return error(
              formatv("section %u: name '%s' is not a string table reference", I + 1, std::string(S.name).c_str()));
        Off = Off * 10 + uint32_t(C - '0');
      }
      auto N = stringAt(Off);
      if (!N)
        return N.takeError().withContext(formatv("section %u name", I + 1));
      S.name = *N;
    }
    S.size = rd32(H + 16);
    S.dataOffset = rd32(H + 20);
    S.relocOffset = rd32(H + 24);
    S.nreloc = rd16(H + 32);
    S.characteristics = rd32(H + 36);
    std::string SN(S.name);
    if (!(S.characteristics & coff::IMAGE_SCN_CNT_UNINITIALIZED_DATA) &&
        (S.dataOffset > Bytes.size() || S.size > Bytes.size() - S.dataOffset))
      return error(formatv("section %s: data [%s, %s) extends past the end of the file (size %s)", SN.c_str(),
                           hex(S.dataOffset).c_str(), hex(uint64_t(S.dataOffset) + S.size).c_str(),
                           hex(Bytes.size()).c_str()));
    if (S.characteristics & coff::IMAGE_SCN_LNK_NRELOC_OVFL)
      return error(
          formatv("section %s: more than 65535 relocations (IMAGE_SCN_LNK_NRELOC_OVFL) are not supported", SN.c_str()));
    if (uint64_t(S.relocOffset) + uint64_t(S.nreloc) * coff::RelocationSize > Bytes.size())
      return error(formatv("section %s: %u relocations at offset %s extend past the end of the file", SN.c_str(),
                           S.nreloc, hex(S.relocOffset).c_str()));
    Sections.push_back(S);
  }
  return Error::success();
}

Error COFFGraphBuilder::graphifySections() {
  BlockBySection.assign(Sections.size(), nullptr);
  for (size_t I = 0; I < Sections.size(); ++I) {
    const SectionHeader &S = Sections[I];
    uint32_t C = S.characteristics;
    MemProt Prot = MemProt::Read; // as JITLink: every section is readable
    if (C & coff::IMAGE_SCN_MEM_WRITE)
      Prot = Prot | MemProt::Write;
    if (C & coff::IMAGE_SCN_MEM_EXECUTE)
      Prot = Prot | MemProt::Exec;
    Section *GS = G->findSectionByName(S.name);
    if (!GS)
      GS = &G->createSection(S.name, Prot);
    else if (GS->prot != Prot)
      return error(formatv("section %s appears twice with different protections (%s vs %s)",
                           std::string(S.name).c_str(), protString(GS->prot).c_str(), protString(Prot).c_str()));
    if (S.name == ".drectve" && !(C & coff::IMAGE_SCN_CNT_UNINITIALIZED_DATA))
      if (Error E = parseDirectives({Bytes.data() + S.dataOffset, S.size}))
        return E;
    // Debug information and linker directives never reach memory.
    if (C & (coff::IMAGE_SCN_MEM_DISCARDABLE | coff::IMAGE_SCN_LNK_INFO)) {
      GS->lifetime = MemLifetime::NoAlloc;
      continue;
    }
    unsigned AlignBits = (C >> 20) & 0xf;
    uint64_t Align = (C & coff::IMAGE_SCN_TYPE_NO_PAD) ? 1 : AlignBits ? uint64_t(1) << (AlignBits - 1) : 16;
    BlockBySection[I] = (C & coff::IMAGE_SCN_CNT_UNINITIALIZED_DATA)
                            ? &G->createZeroFillBlock(*GS, S.size, 0, Align, 0)
                            : &G->createContentBlock(*GS, {Bytes.data() + S.dataOffset, S.size}, 0, Align, 0);
  }
  return Error::success();
}

// The linker options a compiler leaves in .drectve (#pragma comment(linker)),
// of which JITLink acts on two: /alternatename:From=To and /include:Symbol.
// Others (/DEFAULTLIB, /EXPORT, ...) mean nothing to a JIT link.
Error COFFGraphBuilder::parseDirectives(std::string_view Text) {
  size_t I = 0;
  while (I < Text.size()) {
    while (I < Text.size() && (Text[I] == ' ' || Text[I] == '\t' || Text[I] == '\0' || Text[I] == '\n'))
      ++I;
    size_t Start = I;
    bool Quoted = false;
    while (I < Text.size() && (Quoted || !(Text[I] == ' ' || Text[I] == '\t' || Text[I] == '\0' || Text[I] == '\n')))
      Quoted ^= Text[I++] == '"';
    std::string Arg;
    for (char Ch : Text.substr(Start, I - Start))
      if (Ch != '"')
        Arg += Ch;
    if (Arg.size() < 2 || (Arg[0] != '/' && Arg[0] != '-'))
      continue;
    size_t Colon = Arg.find(':');
    std::string Opt = Arg.substr(1, Colon == std::string::npos ? std::string::npos : Colon - 1);
    for (char &Ch : Opt)
      Ch = char(std::tolower(uint8_t(Ch)));
    std::string Value = Colon == std::string::npos ? "" : Arg.substr(Colon + 1);
    if (Opt == "alternatename") {
      size_t Eq = Value.find('=');
      if (Eq == std::string::npos || Eq == 0 || Eq + 1 == Value.size())
        return error(formatv(".drectve: invalid /alternatename directive '%s' (want From=To)", Arg.c_str()));
      AlternateNames.push_back({Value.substr(0, Eq), Value.substr(Eq + 1)});
    } else if (Opt == "include" && !Value.empty())
      Includes.push_back(Value);
  }
  return Error::success();
}

Error COFFGraphBuilder::graphifySymbols() {
  SymbolByIndex.assign(NumSymbols, nullptr);
  std::vector<std::vector<std::pair<uint64_t, Symbol *>>> BySection(Sections.size());
  struct WeakAlias {
    uint32_t alias, target, characteristics;
    std::string_view name;
  };
  std::vector<WeakAlias> WeakAliases;
  // A COMDAT section's definition (its section symbol with the selection)
  // waits for the symbol that names it, per section as in JITLink.
  struct PendingComdat {
    uint32_t symbol;
    Linkage linkage;
  };
  std::vector<std::optional<PendingComdat>> Pending(Sections.size());
  // /include: symbols are looked up (live) whether or not anything refers to them.
  for (const std::string &N : Includes) {
    std::string_view Name = G->allocateString(N);
    Symbol *&X = Externals[Name];
    if (!X)
      X = &G->addExternalSymbol(Name, 0, false);
    X->live = true;
  }
  for (uint32_t I = 0; I < NumSymbols; ++I) {
    const char *E = Bytes.data() + SymtabOffset + uint64_t(I) * coff::SymbolSize;
    uint32_t Value = rd32(E + 8);
    int16_t SecNum = int16_t(rd16(E + 12));
    uint16_t Type = rd16(E + 14);
    uint8_t Class = uint8_t(E[16]), NumAux = uint8_t(E[17]);
    if (uint64_t(I) + NumAux >= NumSymbols)
      return error(formatv("symbol %u: %u auxiliary records run past the end of the symbol table", I, NumAux));
    const char *Aux = E + coff::SymbolSize;
    auto N = symbolName(E);
    if (!N)
      return N.takeError().withContext(formatv("symbol %u name", I));
    std::string_view SymName = *N;
    std::string Label = formatv("symbol %u (%s)", I, std::string(SymName).c_str());
    bool Callable = ((Type & 0xf0) >> 4) == 2; // IMAGE_SYM_DTYPE_FUNCTION
    Symbol *Sym = nullptr;
    if (Class == coff::IMAGE_SYM_CLASS_FILE) {
    } else if (Class == coff::IMAGE_SYM_CLASS_WEAK_EXTERNAL) {
      if (!NumAux)
        return error(Label + ": weak external without its auxiliary record");
      WeakAliases.push_back({I, rd32(Aux), rd32(Aux + 4), SymName});
    } else if (SecNum == 0 && Class == coff::IMAGE_SYM_CLASS_EXTERNAL && Value) {
      // Common: the value is the size; as in JITLink, the alignment is the
      // largest power of two dividing it.
      if (!Common)
        Common = &G->createSection("__common", MemProt::Read | MemProt::Write);
      Sym = &G->addCommonSymbol(SymName, Scope::Default, *Common, Value, Value & -Value, false);
    } else if (SecNum == 0 && Class == coff::IMAGE_SYM_CLASS_EXTERNAL) {
      Symbol *&X = Externals[SymName];
      if (!X)
        X = &G->addExternalSymbol(SymName, 0, false);
      Sym = X;
    } else if (SecNum == -1)
      Sym = &G->addAbsoluteSymbol(SymName, Value, 0, Linkage::Strong, Scope::Local, false);
    else if (SecNum <= 0 || size_t(SecNum) > Sections.size())
      return error(
          formatv("%s: section number %d is out of range (%zu sections)", Label.c_str(), SecNum, Sections.size()));
    else if (Block *B = BlockBySection[SecNum - 1]) {
      bool Comdat = Sections[SecNum - 1].characteristics & coff::IMAGE_SCN_LNK_COMDAT;
      if (Value > B->size)
        return error(formatv("%s: offset %s is past the end of section %s (size %s)", Label.c_str(), hex(Value).c_str(),
                             std::string(B->section->name).c_str(), hex(B->size).c_str()));
      auto &P = Pending[SecNum - 1];
      if (Class == coff::IMAGE_SYM_CLASS_EXTERNAL && !Comdat)
        Sym = Defined[SymName] =
            &G->addDefinedSymbol(*B, Value, SymName, 0, Linkage::Strong, Scope::Default, Callable, false);
      else if (Class == coff::IMAGE_SYM_CLASS_EXTERNAL) {
        // The COMDAT's name; sized later like any symbol (the definition's
        // length is the section's, not the symbol's).
        if (!P)
          return error(Label + ": COMDAT symbol without its section's definition before it");
        Sym = Defined[SymName] =
            &G->addDefinedSymbol(*B, Value, SymName, 0, P->linkage, Scope::Default, Callable, false);
        SymbolByIndex[P->symbol] = Sym; // relocations against the section symbol reach it too
        P.reset();
      } else if (Class == coff::IMAGE_SYM_CLASS_STATIC || Class == coff::IMAGE_SYM_CLASS_LABEL) {
        if (!NumAux || !Comdat) // an ordinary static symbol (or a section's own)
          Sym = &G->addDefinedSymbol(*B, Value, SymName, 0, Linkage::Strong, Scope::Local, Callable, false);
        else {
          uint16_t Assoc = rd16(Aux + 12);
          uint8_t Select = uint8_t(Aux[14]);
          if (Select == coff::IMAGE_COMDAT_SELECT_ASSOCIATIVE) {
            if (Assoc == 0 || Assoc > Sections.size() || !BlockBySection[Assoc - 1])
              return error(
                  formatv("%s: associative COMDAT names section %u, which has no block", Label.c_str(), Assoc));
            Sym = &G->addDefinedSymbol(*B, Value, SymName, 0, Linkage::Strong, Scope::Local, Callable, false);
            BlockBySection[Assoc - 1]->addEdge(edge::KeepAlive, 0, *Sym, 0);
          } else {
            Linkage L;
            switch (Select) {
            case coff::IMAGE_COMDAT_SELECT_NODUPLICATES: L = Linkage::Strong; break;
            // JITLink keeps one copy without comparing sizes or contents (and
            // without picking the largest).
            case coff::IMAGE_COMDAT_SELECT_ANY:
            case coff::IMAGE_COMDAT_SELECT_SAME_SIZE:
            case coff::IMAGE_COMDAT_SELECT_EXACT_MATCH:
            case coff::IMAGE_COMDAT_SELECT_LARGEST: L = Linkage::Weak; break;
            case coff::IMAGE_COMDAT_SELECT_NEWEST:
              return error(Label + ": IMAGE_COMDAT_SELECT_NEWEST is not supported");
            default: return error(formatv("%s: invalid COMDAT selection %u", Label.c_str(), Select));
            }
            if (P)
              return error(Label + ": second COMDAT definition of a section whose first is not yet named");
            P = PendingComdat{I, L};
          }
        }
      } else
        return error(formatv("%s: unsupported storage class %u", Label.c_str(), Class));
      if (Sym)
        BySection[SecNum - 1].push_back({Sym->offset, Sym});
    }
    if (Sym)
      SymbolByIndex[I] = Sym;
    I += NumAux;
  }
  // Weak externals: a weak definition of the alias at its default, sized as
  // the default is now (0 unless common), as JITLink does. Only
  // IMAGE_WEAK_EXTERN_SEARCH_ALIAS (3) exports the alias.
  for (const WeakAlias &W : WeakAliases) {
    Symbol *T = W.target < SymbolByIndex.size() ? SymbolByIndex[W.target] : nullptr;
    if (!T)
      return error(formatv("symbol %u (%s): weak external's default, symbol %u, is not a graph symbol", W.alias,
                           std::string(W.name).c_str(), W.target));
    if (!T->isDefined())
      return error(formatv("symbol %u (%s): weak external whose default %s is not defined in this object is not "
                           "supported",
                           W.alias, std::string(W.name).c_str(), std::string(T->name).c_str()));
    SymbolByIndex[W.alias] =
        &G->addDefinedSymbol(T->block(), T->offset, W.name, T->size, Linkage::Weak,
                             W.characteristics == 3 ? Scope::Default : Scope::Local, T->callable, false);
  }
  // /alternatename:From=To defines an external From of this object as To
  // (weak, local), when To is defined here, as JITLink does.
  for (auto &[From, To] : AlternateNames) {
    auto T = Defined.find(To);
    auto A = Externals.find(From);
    if (T != Defined.end() && A != Externals.end())
      G->makeDefined(*A->second, T->second->block(), T->second->offset, T->second->size, Linkage::Weak, Scope::Local,
                     false);
  }
  // COFF symbols carry no size: each runs to the next one's offset (those at
  // one offset share a size).
  for (size_t S = 0; S < BySection.size(); ++S) {
    auto &Syms = BySection[S];
    if (Syms.empty())
      continue;
    std::sort(Syms.begin(), Syms.end());
    Syms.erase(std::unique(Syms.begin(), Syms.end()), Syms.end());
    uint64_t End = BlockBySection[S]->size, Next = End, NextSize = 0;
    for (auto It = Syms.rbegin(); It != Syms.rend(); ++It) {
      uint64_t Size = It->first == Next ? NextSize : Next - It->first;
      Next = It->first;
      NextSize = Size;
      if (!It->second->size)
        It->second->size = Size;
    }
  }
  return Error::success();
}

COFFRelocation COFFGraphBuilder::relocation(size_t I, uint32_t J) const {
  const char *R = Bytes.data() + Sections[I].relocOffset + uint64_t(J) * coff::RelocationSize;
  return COFFRelocation{rd32(R), rd32(R + 4), rd16(R + 8), J};
}

Error COFFGraphBuilder::addRelocations() {
  for (size_t I = 0; I < Sections.size(); ++I) {
    Block *B = BlockBySection[I];
    if (!B)
      continue;
    for (uint32_t J = 0; J < Sections[I].nreloc; ++J)
      if (Error E = Map(*this, *B, relocation(I, J)))
        return E;
  }
  return Error::success();
}

Error COFFGraphBuilder::forEachRelocation(const TargetInfo &T, std::string Name, std::span<const char> Bytes,
                                          const SectionFn &OnSection, const RelocationFn &OnRelocation) {
  COFFGraphBuilder B(std::move(Name), Bytes, T, nullptr);
  if (Error E = B.parseHeaders())
    return E;
  for (const SectionHeader &S : B.Sections)
    OnSection(S.name, S.characteristics);
  for (size_t I = 0; I < B.Sections.size(); ++I)
    for (uint32_t J = 0; J < B.Sections[I].nreloc; ++J) {
      COFFRelocation R = B.relocation(I, J);
      std::string_view SymName;
      if (R.symbol < B.NumSymbols)
        if (auto N = B.symbolName(Bytes.data() + B.SymtabOffset + uint64_t(R.symbol) * coff::SymbolSize))
          SymName = *N;
        else
          consumeError(N.takeError());
      OnRelocation(B.Sections[I].name, R, SymName);
    }
  return Error::success();
}

Error COFFGraphBuilder::relocError(const Block &B, const COFFRelocation &R, const std::string &Problem) const {
  const char *TypeName = Target.relocationName(R.type);
  return makeError(formatv("%s: %s+%s: %s (type %u, relocation %u): %s", Name.c_str(),
                           std::string(Sections[sectionNumber(B) - 1].name).c_str(), hex(R.offset).c_str(),
                           TypeName ? TypeName : "unknown relocation", R.type, R.index, Problem.c_str()));
}

uint16_t COFFGraphBuilder::sectionNumber(const Block &B) const {
  return uint16_t(std::find(BlockBySection.begin(), BlockBySection.end(), &B) - BlockBySection.begin() + 1);
}

Error COFFGraphBuilder::checkFixup(const Block &B, const COFFRelocation &R, unsigned Width) const {
  if (B.isZeroFill())
    return relocError(B, R, "relocation in a section without content (IMAGE_SCN_CNT_UNINITIALIZED_DATA)");
  if (R.offset > B.size || Width > B.size - R.offset)
    return relocError(
        B, R, formatv("%u-byte fixup extends past the end of the section (size %s)", Width, hex(B.size).c_str()));
  return Error::success();
}

Expected<Symbol *> COFFGraphBuilder::target(const Block &B, const COFFRelocation &R) {
  if (R.symbol >= SymbolByIndex.size())
    return relocError(B, R, formatv("symbol index %u is out of range (%zu symbols)", R.symbol, SymbolByIndex.size()));
  if (!SymbolByIndex[R.symbol])
    return relocError(B, R,
                      formatv("symbol index %u names no graph symbol (an auxiliary record, a file name or a "
                              "symbol of a discarded section)",
                              R.symbol));
  return SymbolByIndex[R.symbol];
}

Symbol &COFFGraphBuilder::imageBase() {
  if (!ImageBase) { // live, as llvm-jitlink keeps it, though no edge reaches it once RVAs are lowered
    ImageBase = &G->addExternalSymbol("__ImageBase", 0, true);
    ImageBase->live = true;
  }
  return *ImageBase;
}

} // namespace linklab
