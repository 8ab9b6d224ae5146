#include "macho/macho_graph_builder.h"

#include "link/eh_frame.h"

#include <algorithm>
#include <cstring>
#include <optional>

namespace linklab {

static uint32_t rd32(const char *P) { return readLE<uint32_t>(P); }
static uint64_t rd64(const char *P) { return readLE<uint64_t>(P); }

static bool isMachO(std::span<const char> B) {
  if (B.size() < 4)
    return false;
  uint32_t M = rd32(B.data());
  return M == 0xfeedfacf || M == 0xcffaedfe || M == 0xfeedface || M == 0xcefaedfe;
}

// Byte order from the magic's spelling, word size from its value.
static Expected<ObjectIdentity> identifyMachO(const std::string &Name, std::span<const char> B) {
  uint32_t Magic = rd32(B.data());
  bool Swapped = Magic == 0xcffaedfe || Magic == 0xcefaedfe;
  uint8_t PtrSize = Magic == 0xfeedfacf || Magic == 0xcffaedfe ? 8 : 4;
  if (B.size() < (PtrSize == 8 ? 32u : 28u))
    return makeError(
        formatv("%s: truncated MachO header (%zu bytes, need %u)", Name.c_str(), B.size(), PtrSize == 8 ? 32u : 28u));
  uint32_t CPU = rd32(B.data() + 4);
  if (Swapped)
    CPU = __builtin_bswap32(CPU);
  return ObjectIdentity{CPU, PtrSize, Swapped};
}

static const char *cpuTypeName(uint32_t CPU) {
  switch (CPU) {
  case macho::CPU_TYPE_X86_64: return "CPU_TYPE_X86_64";
  case macho::CPU_TYPE_ARM64: return "CPU_TYPE_ARM64";
  case 0x7: return "CPU_TYPE_X86";
  case 0xc: return "CPU_TYPE_ARM";
  case 0x12: return "CPU_TYPE_POWERPC";
  case 0x01000012: return "CPU_TYPE_POWERPC64";
  default: return nullptr;
  }
}

extern const ObjectFormatRow MachOFormat = {ObjectFormat::MachO, "MachO",    "-apple-darwin", isMachO,
                                            identifyMachO,       cpuTypeName};

Expected<std::unique_ptr<LinkGraph>> MachOGraphBuilder::build(const TargetInfo &T, const char *TripleName,
                                                              std::string Name, GraphBuffer Buffer,
                                                              MachORelocationMapper Map) {
  std::span<const char> Bytes = Buffer.span();
  MachOGraphBuilder B(Name, Bytes, T, Map);
  if (rd32(Bytes.data() + 12) != macho::MH_OBJECT)
    return B.error(formatv("MachO file type %u is not a relocatable object (MH_OBJECT)", rd32(Bytes.data() + 12)));
  B.SubsectionsViaSymbols = rd32(Bytes.data() + 24) & macho::MH_SUBSECTIONS_VIA_SYMBOLS;
  B.G = std::make_unique<LinkGraph>(std::move(Name), Triple::parse(TripleName), T.arch.edgeKindName);
  B.G->retainBuffer(std::move(Buffer));
  if (Error E = B.parseLoadCommands())
    return E;
  if (Error E = B.graphifySymbols())
    return E;
  if (Error E = B.addRelocations())
    return E;
  return std::move(B.G);
}

static std::string_view fixedName(const char *P) { return {P, strnlen(P, 16)}; }

Error MachOGraphBuilder::parseLoadCommands() {
  uint32_t NCmds = rd32(Bytes.data() + 16), SizeOfCmds = rd32(Bytes.data() + 20);
  if (uint64_t(SizeOfCmds) > Bytes.size() - 32)
    return error(formatv("load commands (%s bytes) extend past the end of the file", hex(SizeOfCmds).c_str()));
  uint64_t Off = 32, End = 32 + uint64_t(SizeOfCmds);
  std::span<const char> SymtabCmd;
  for (uint32_t I = 0; I < NCmds; ++I) {
    if (End - Off < 8)
      return error(formatv("load command %u at offset %s is truncated", I, hex(Off).c_str()));
    uint32_t Cmd = rd32(Bytes.data() + Off), Size = rd32(Bytes.data() + Off + 4);
    if (Size < 8 || Size > End - Off)
      return error(formatv("load command %u at offset %s has bad size %s", I, hex(Off).c_str(), hex(Size).c_str()));
    const char *C = Bytes.data() + Off;
    if (Cmd == macho::LC_SEGMENT_64) {
      if (Size < 72)
        return error(formatv("LC_SEGMENT_64 at offset %s is truncated", hex(Off).c_str()));
      uint32_t NSects = rd32(C + 64);
      if (uint64_t(NSects) * 80 > Size - 72)
        return error(
            formatv("LC_SEGMENT_64 at offset %s: %u sections do not fit in the command", hex(Off).c_str(), NSects));
      for (uint32_t J = 0; J < NSects; ++J) {
        const char *S = C + 72 + J * 80;
        MachOSection Sec;
        Sec.sectName = fixedName(S);
        Sec.segName = fixedName(S + 16);
        Sec.address = rd64(S + 32);
        Sec.size = rd64(S + 40);
        uint32_t FileOff = rd32(S + 48), Align = rd32(S + 52), RelOff = rd32(S + 56);
        Sec.nreloc = rd32(S + 60);
        Sec.flags = rd32(S + 64);
        std::string Full = std::string(Sec.segName) + "," + std::string(Sec.sectName);
        if (Align > 63)
          return error(formatv("section %s: alignment 2^%u is too large", Full.c_str(), Align));
        Sec.alignment = uint64_t(1) << Align;
        uint32_t Type = Sec.flags & macho::SECTION_TYPE;
        bool Zero = Type == macho::S_ZEROFILL || Type == macho::S_GB_ZEROFILL || Type == macho::S_THREAD_LOCAL_ZEROFILL;
        Sec.data = nullptr;
        if (!Zero) {
          if (FileOff > Bytes.size() || Sec.size > Bytes.size() - FileOff)
            return error(formatv("section %s: data [%s, %s) extends past the end of the file (size %s)", Full.c_str(),
                                 hex(FileOff).c_str(), hex(FileOff + Sec.size).c_str(), hex(Bytes.size()).c_str()));
          Sec.data = Bytes.data() + FileOff;
        }
        if (Sec.nreloc) {
          if (Zero)
            return error(formatv("section %s: zero-fill section has relocations", Full.c_str()));
          if (RelOff > Bytes.size() || uint64_t(Sec.nreloc) * 8 > Bytes.size() - RelOff)
            return error(formatv("section %s: %u relocations at offset %s extend past the end of the file",
                                 Full.c_str(), Sec.nreloc, hex(RelOff).c_str()));
          Sec.relocData = Bytes.subspan(RelOff, size_t(Sec.nreloc) * 8);
        }
        if (Sec.address + Sec.size < Sec.address)
          return error(formatv("section %s: address range wraps around", Full.c_str()));
        MemProt Prot = (Sec.flags & macho::S_ATTR_PURE_INSTRUCTIONS) ? MemProt::Read | MemProt::Exec
                                                                     : MemProt::Read | MemProt::Write;
        Sec.graphSection = &G->createSection(G->allocateString(Full), Prot);
        if (Sec.flags & macho::S_ATTR_DEBUG)
          Sec.graphSection->lifetime = MemLifetime::NoAlloc;
        Sections.push_back(std::move(Sec));
      }
    } else if (Cmd == macho::LC_SYMTAB) {
      if (Size < 24)
        return error(formatv("LC_SYMTAB at offset %s is truncated", hex(Off).c_str()));
      SymtabCmd = {C, 24};
    }
    Off += Size;
  }
  if (Sections.size() > 255)
    return error(formatv("%zu sections: a MachO object has at most 255", Sections.size()));
  // Overlapping sections would make address lookups ambiguous.
  std::vector<const MachOSection *> Sorted;
  for (auto &S : Sections)
    Sorted.push_back(&S);
  std::sort(Sorted.begin(), Sorted.end(),
            [](auto *L, auto *R) { return L->address != R->address ? L->address < R->address : L->size < R->size; });
  for (size_t I = 1; I < Sorted.size(); ++I)
    if (Sorted[I]->address < Sorted[I - 1]->address + Sorted[I - 1]->size)
      return error(formatv("section %s overlaps section %s", std::string(Sorted[I - 1]->graphSection->name).c_str(),
                           std::string(Sorted[I]->graphSection->name).c_str()));
  if (SymtabCmd.empty())
    return Error::success();

  uint32_t SymOff = rd32(SymtabCmd.data() + 8), NSymsN = rd32(SymtabCmd.data() + 12);
  uint32_t StrOff = rd32(SymtabCmd.data() + 16), StrSize = rd32(SymtabCmd.data() + 20);
  if (SymOff > Bytes.size() || uint64_t(NSymsN) * 16 > Bytes.size() - SymOff)
    return error(formatv("symbol table (%u entries at offset %s) extends past the end of the file", NSymsN,
                         hex(SymOff).c_str()));
  if (StrOff > Bytes.size() || StrSize > Bytes.size() - StrOff)
    return error(formatv("string table [%s, %s) extends past the end of the file", hex(StrOff).c_str(),
                         hex(uint64_t(StrOff) + StrSize).c_str()));
  std::string_view Strings(Bytes.data() + StrOff, StrSize);
  SymbolByIndex.assign(NSymsN, nullptr);
  for (uint32_t I = 0; I < NSymsN; ++I) {
    const char *E = Bytes.data() + SymOff + uint64_t(I) * 16;
    MachONSym N{
        I,           std::nullopt, rd64(E + 8), uint8_t(E[4]), uint8_t(E[5]), readLE<uint16_t>(E + 6), Linkage::Strong,
        Scope::Local};
    if (N.type & macho::N_STAB)
      continue;
    uint32_t StrX = rd32(E);
    if (StrX) {
      if (StrX >= Strings.size())
        return error(formatv("symbol %u: name offset %s is outside the string table (size %s)", I, hex(StrX).c_str(),
                             hex(Strings.size()).c_str()));
      size_t Len = Strings.find('\0', StrX);
      if (Len == std::string_view::npos)
        return error(formatv("symbol %u: name is not NUL-terminated", I));
      N.name = Strings.substr(StrX, Len - StrX);
    } else if (N.type & macho::N_EXT)
      return error(formatv("Symbol at index %u has no name (string table index 0), but N_EXT bit is set", I));
    std::string Label = N.name ? std::string(*N.name) : "<anonymous>";
    if ((N.type & macho::N_TYPE) == macho::N_SECT) {
      if (N.sect == 0 || N.sect > Sections.size())
        return error(formatv("symbol %u (%s): section number %u is out of range (%zu sections)", I, Label.c_str(),
                             N.sect, Sections.size()));
      const MachOSection &S = Sections[N.sect - 1];
      if (N.value < S.address || N.value > S.address + S.size)
        return error(formatv("symbol %u (%s): address %s does not fall within section %s [%s, %s]", I, Label.c_str(),
                             hex(N.value).c_str(), std::string(S.graphSection->name).c_str(), hex(S.address).c_str(),
                             hex(S.address + S.size).c_str()));
    }
    N.linkage = (N.desc & (macho::N_WEAK_DEF | macho::N_WEAK_REF)) ? Linkage::Weak : Linkage::Strong;
    if (N.type & macho::N_EXT)
      N.scope = (N.type & macho::N_PEXT) || (N.name && N.name->starts_with("l")) ? Scope::Hidden : Scope::Default;
    NSyms.push_back(N);
  }
  return Error::success();
}

Error MachOGraphBuilder::graphifySymbols() {
  std::vector<std::vector<MachONSym *>> BySection(Sections.size());
  for (MachONSym &N : NSyms) {
    std::string Label = N.name ? std::string(*N.name) : "<anonymous>";
    bool Live = N.desc & macho::N_NO_DEAD_STRIP;
    switch (N.type & macho::N_TYPE) {
    case macho::N_UNDF:
      if (!N.name)
        return error(formatv("symbol %u: anonymous %s symbol", N.index, N.value ? "common" : "external"));
      if (N.value) { // a common symbol: its value is its size
        if (!Common)
          Common = &G->createSection("__common", MemProt::Read | MemProt::Write);
        Block &B = G->createZeroFillBlock(*Common, N.value, 0, uint64_t(1) << ((N.desc >> 8) & 0xf), 0);
        // Weak, as llvm-jitlink has it: several objects may declare the same
        // common, and a real definition overrides them.
        SymbolByIndex[N.index] = &G->addDefinedSymbol(B, 0, *N.name, N.value, Linkage::Weak, N.scope, false, Live);
      } else
        SymbolByIndex[N.index] = &G->addExternalSymbol(*N.name, 0, N.desc & macho::N_WEAK_REF);
      break;
    case macho::N_ABS:
      if (!N.name)
        return error(formatv("symbol %u: anonymous absolute symbol", N.index));
      SymbolByIndex[N.index] = &G->addAbsoluteSymbol(*N.name, N.value, 0, Linkage::Strong, N.scope, Live);
      break;
    case macho::N_SECT: BySection[N.sect - 1].push_back(&N); break;
    case macho::N_PBUD:
    case macho::N_INDR:
      return error(formatv("symbol %u (%s): unsupported %s symbol", N.index, Label.c_str(),
                           (N.type & macho::N_TYPE) == macho::N_PBUD ? "N_PBUD" : "N_INDR"));
    default:
      return error(formatv("symbol %u (%s): unknown symbol type %u", N.index, Label.c_str(), N.type & macho::N_TYPE));
    }
  }
  for (uint32_t I = 0; I < Sections.size(); ++I)
    if (Error E = (Sections[I].flags & macho::SECTION_TYPE) == macho::S_CSTRING_LITERALS
                      ? graphifyCStrings(Sections[I], BySection[I])
                      : graphifySection(Sections[I], BySection[I]))
      return E;
  return Error::success();
}

Symbol &MachOGraphBuilder::addSymbol(MachOSection &S, MachONSym &N, Block &B, uint64_t Size, bool Canonical) {
  bool Live = (N.desc & macho::N_NO_DEAD_STRIP) || (S.flags & macho::S_ATTR_NO_DEAD_STRIP);
  bool Text = S.flags & macho::S_ATTR_PURE_INSTRUCTIONS;
  uint64_t Off = N.value - B.address;
  Symbol &Sym = N.name ? G->addDefinedSymbol(B, Off, *N.name, Size, N.linkage, N.scope, Text, Live)
                       : G->addAnonymousSymbol(B, Off, Size, Text, Live);
  SymbolByIndex[N.index] = &Sym;
  if (Canonical)
    S.canonical[Sym.address()] = &Sym;
  return Sym;
}

static Block &newBlock(LinkGraph &G, MachOSection &S, Addr Start, uint64_t Size, uint64_t AlignOfs) {
  uint64_t Off = Start - S.address;
  return S.data ? G.createContentBlock(*S.graphSection, {S.data + Off, size_t(Size)}, Start, S.alignment, AlignOfs)
                : G.createZeroFillBlock(*S.graphSection, Size, Start, S.alignment, AlignOfs);
}

Error MachOGraphBuilder::graphifySection(MachOSection &S, std::vector<MachONSym *> &Stack) {
  bool NoDeadStrip = S.flags & macho::S_ATTR_NO_DEAD_STRIP;
  auto StartBlock = [&](uint64_t Size) {
    Block &B = newBlock(*G, S, S.address, Size, 0);
    S.canonical[S.address] = &G->addAnonymousSymbol(B, 0, Size, false, NoDeadStrip);
  };
  if (Stack.empty()) {
    if (S.size)
      StartBlock(S.size);
    return Error::success();
  }
  // A stack: the lowest address on top; at one address, the symbol made
  // first (the canonical one) is the non-alt-entry, widest-scope, first-named.
  std::sort(Stack.begin(), Stack.end(), [](const MachONSym *L, const MachONSym *R) {
    if (L->value != R->value)
      return L->value > R->value;
    if (L->isAltEntry() != R->isAltEntry())
      return R->isAltEntry();
    if (L->scope != R->scope)
      return L->scope < R->scope;
    return L->name < R->name;
  });
  if (Stack.back()->isAltEntry())
    return error(formatv("first symbol in %s is an alt-entry symbol", std::string(S.graphSection->name).c_str()));
  // __eh_frame is split at its records (splitEHFrame), not at its symbols
  // (EH_Frame1, func.eh): one block, each symbol running to the next one.
  if (S.graphSection->name == MachOEHFrame.sectionName) {
    Block &B = newBlock(*G, S, S.address, S.size, 0);
    if (Stack.back()->value != S.address)
      S.canonical[S.address] = &G->addAnonymousSymbol(B, 0, Stack.back()->value - S.address, false, NoDeadStrip);
    while (!Stack.empty()) {
      MachONSym &N = *Stack.back();
      Stack.pop_back();
      auto Next = std::find_if(Stack.rbegin(), Stack.rend(), [&](const MachONSym *M) { return M->value != N.value; });
      Addr End = Next == Stack.rend() ? S.address + S.size : (*Next)->value;
      addSymbol(S, N, B, End - N.value, !S.canonical.count(N.value));
    }
    return Error::success();
  }
  if (Stack.back()->value != S.address)
    StartBlock(Stack.back()->value - S.address);
  while (!Stack.empty()) {
    // One block per symbol (with its alt-entries and aliases), or one for the
    // whole section without MH_SUBSECTIONS_VIA_SYMBOLS.
    std::vector<MachONSym *> BlockSyms{Stack.back()};
    Stack.pop_back();
    while (!Stack.empty() &&
           (Stack.back()->isAltEntry() || Stack.back()->value == BlockSyms.back()->value || !SubsectionsViaSymbols)) {
      BlockSyms.push_back(Stack.back());
      Stack.pop_back();
    }
    Addr Start = BlockSyms.front()->value;
    Addr End = Stack.empty() ? S.address + S.size : Stack.back()->value;
    Block &B = newBlock(*G, S, Start, End - Start, Start % S.alignment);
    // Highest address first, so each symbol runs to the next one's start.
    std::optional<Addr> LastCanonical;
    Addr SymEnd = End;
    while (!BlockSyms.empty()) {
      MachONSym &N = *BlockSyms.back();
      BlockSyms.pop_back();
      bool Canonical = LastCanonical != N.value;
      addSymbol(S, N, B, SymEnd - N.value, Canonical);
      if (Canonical) {
        if (LastCanonical)
          SymEnd = *LastCanonical;
        LastCanonical = N.value;
      }
    }
  }
  return Error::success();
}

// One block per NUL-terminated string, so identical strings could merge and
// unreferenced ones be dropped.
Error MachOGraphBuilder::graphifyCStrings(MachOSection &S, std::vector<MachONSym *> &Syms) {
  if (!S.size)
    return Error::success();
  if (!S.data || S.data[S.size - 1] != '\0')
    return error(formatv("C-string section %s does not end with a NUL", std::string(S.graphSection->name).c_str()));
  std::sort(Syms.begin(), Syms.end(), [](const MachONSym *L, const MachONSym *R) {
    if (L->value != R->value)
      return L->value > R->value;
    if (L->linkage != R->linkage)
      return L->linkage > R->linkage;
    if (L->scope != R->scope)
      return L->scope > R->scope;
    return L->name > R->name;
  });
  uint64_t Start = 0;
  for (uint64_t I = 0; I < S.size; ++I) {
    if (S.data[I] != '\0')
      continue;
    uint64_t Size = I + 1 - Start;
    Block &B = newBlock(*G, S, S.address + Start, Size, Start % S.alignment);
    if (Syms.empty() || Syms.back()->value != B.address)
      S.canonical[B.address] = &G->addAnonymousSymbol(B, 0, Size, false, false);
    Addr End = B.address + Size, LastCanonical = End;
    while (!Syms.empty() && Syms.back()->value < End) {
      MachONSym &N = *Syms.back();
      bool Canonical = LastCanonical != N.value;
      if (Canonical)
        LastCanonical = N.value;
      addSymbol(S, N, B, End - N.value, Canonical);
      Syms.pop_back();
    }
    Start += Size;
  }
  return Error::success();
}

Expected<std::vector<MachORelocation>> MachOGraphBuilder::relocationsOf(const MachOSection &S) const {
  std::vector<MachORelocation> Relocs;
  Relocs.reserve(S.nreloc);
  for (uint32_t I = 0; I < S.nreloc; ++I) {
    const char *E = S.relocData.data() + size_t(I) * 8;
    uint32_t Addr = rd32(E), Info = rd32(E + 4);
    if (Addr & 0x80000000u)
      return error(formatv("%s: relocation %u is a scattered relocation, which 64-bit MachO does not use",
                           std::string(S.graphSection->name).c_str(), I));
    Relocs.push_back({Addr, Info & 0xffffff, bool((Info >> 24) & 1), uint8_t((Info >> 25) & 3), bool((Info >> 27) & 1),
                      uint8_t(Info >> 28), I});
  }
  return Relocs;
}

Error MachOGraphBuilder::addRelocations() {
  for (MachOSection &S : Sections) {
    auto Relocs = relocationsOf(S);
    if (!Relocs)
      return Relocs.takeError();
    if (!Relocs->empty())
      if (Error E = Map(*this, S, *Relocs))
        return E;
  }
  return Error::success();
}

Error MachOGraphBuilder::forEachRelocation(const TargetInfo &T, std::string Name, std::span<const char> Bytes,
                                           const SectionFn &OnSection, const RelocationFn &OnRelocation) {
  MachOGraphBuilder B(Name, Bytes, T, nullptr);
  // parseLoadCommands names each section by a graph section of its own.
  B.G = std::make_unique<LinkGraph>(std::move(Name), Triple(), T.arch.edgeKindName);
  if (Error E = B.parseLoadCommands())
    return E;
  for (const MachOSection &S : B.Sections)
    OnSection(S);
  for (const MachOSection &S : B.Sections) {
    auto Relocs = B.relocationsOf(S);
    if (!Relocs)
      return Relocs.takeError();
    for (const MachORelocation &R : *Relocs) {
      // NSyms is in symbol-table order (stabs left out).
      auto N = std::lower_bound(B.NSyms.begin(), B.NSyms.end(), R.symbolnum,
                                [](const MachONSym &N, uint32_t I) { return N.index < I; });
      bool Named = R.external && N != B.NSyms.end() && N->index == R.symbolnum && N->name;
      OnRelocation(S, R, Named ? *N->name : std::string_view());
    }
  }
  return Error::success();
}

Error MachOGraphBuilder::relocError(const MachOSection &S, const MachORelocation &R, const std::string &Problem) const {
  const char *TypeName = Target.relocationName(R.type);
  return makeError(formatv("%s: %s+%s: %s (type %u, relocation %u): %s", Name.c_str(),
                           std::string(S.graphSection->name).c_str(), hex(R.address).c_str(),
                           TypeName ? TypeName : "unknown relocation", R.type, R.index, Problem.c_str()));
}

static Symbol *canonicalAt(const MachOSection &S, Addr A) {
  auto It = S.canonical.upper_bound(A);
  if (It == S.canonical.begin())
    return nullptr;
  Symbol *Sym = std::prev(It)->second;
  return A <= Sym->address() + Sym->size ? Sym : nullptr;
}

Expected<Block *> MachOGraphBuilder::blockToFix(const MachOSection &S, const MachORelocation &R) {
  Addr A = S.address + R.address;
  Symbol *Sym = canonicalAt(S, A);
  if (!Sym)
    return relocError(S, R, "no block covers the fixup address");
  Block &B = Sym->block();
  uint64_t Width = uint64_t(1) << R.length;
  if (A + Width > B.address + B.content().size())
    return relocError(S, R,
                      formatv("%u-byte fixup extends past the end of its block [%s, %s)", unsigned(Width),
                              hex(B.address).c_str(), hex(B.address + B.size).c_str()));
  return &B;
}

Expected<Symbol *> MachOGraphBuilder::symbolByIndex(const MachOSection &S, const MachORelocation &R, uint32_t Index) {
  if (Index >= SymbolByIndex.size())
    return relocError(S, R, formatv("symbol index %u is out of range (%zu symbols)", Index, SymbolByIndex.size()));
  if (!SymbolByIndex[Index])
    return relocError(S, R, formatv("symbol index %u names no graph symbol (a debugging symbol?)", Index));
  return SymbolByIndex[Index];
}

Expected<Symbol *> MachOGraphBuilder::symbolByAddress(const MachOSection &S, const MachORelocation &R, uint32_t SectNum,
                                                      Addr Address) {
  if (SectNum == 0 || SectNum > Sections.size())
    return relocError(S, R, formatv("section number %u is out of range (%zu sections)", SectNum, Sections.size()));
  Symbol *Sym = canonicalAt(Sections[SectNum - 1], Address);
  if (!Sym)
    return relocError(S, R,
                      formatv("no symbol covers address %s in section %s", hex(Address).c_str(),
                              std::string(Sections[SectNum - 1].graphSection->name).c_str()));
  return Sym;
}

Error MachOGraphBuilder::addSubtractorPair(MachOSection &S, const MachORelocation &R, const MachORelocation *Next,
                                           const PairKinds &K) {
  if (R.pcrel || !R.external || R.length < 2)
    return relocError(S, R, "SUBTRACTOR must be extern, not PC-relative, 4 or 8 bytes");
  if (!Next || Next->type != K.unsignedType)
    return relocError(S, R, "SUBTRACTOR is not followed by its UNSIGNED relocation");
  if (Next->address != R.address)
    return relocError(
        S, R, formatv("paired UNSIGNED relocation is at %s, not at the same address", hex(Next->address).c_str()));
  if (Next->length != R.length || Next->pcrel)
    return relocError(S, R, "paired UNSIGNED relocation differs in length or is PC-relative");
  auto BP = blockToFix(S, R);
  if (!BP)
    return BP.takeError();
  Block &B = **BP;
  auto From = symbolByIndex(S, R, R.symbolnum);
  if (!From)
    return From.takeError();
  Addr Fixup = S.address + R.address;
  const char *Content = B.content().data() + (Fixup - B.address);
  uint64_t Value = R.length == 3 ? rd64(Content) : uint64_t(int64_t(int32_t(rd32(Content))));
  Symbol *To;
  if (Next->external) {
    auto T = symbolByIndex(S, *Next, Next->symbolnum);
    if (!T)
      return T.takeError();
    To = *T;
  } else {
    if (Next->symbolnum == 0 || Next->symbolnum > Sections.size())
      return relocError(S, *Next, formatv("section number %u is out of range", Next->symbolnum));
    const MachOSection &TS = Sections[Next->symbolnum - 1];
    To = canonicalAt(TS, TS.address);
    if (!To)
      return relocError(S, *Next, "the target section has no symbol at its start");
    Value -= To->address();
  }
  // The fixup must sit in the block of one of the two symbols.
  bool FixFrom;
  if (&B == (*From)->base) {
    if (&B == To->base && K.sameBlockByOffset) // both here: the one past the fixup is the other end
      FixFrom = To->address() > Fixup ? true : (*From)->address() > Fixup ? false : (*From)->address() >= To->address();
    else
      FixFrom = true;
  } else if (&B == To->base)
    FixFrom = false;
  else
    return relocError(S, R, "SUBTRACTOR relocation must fix up the block of one of its two symbols");
  uint32_t Off = uint32_t(Fixup - B.address);
  if (FixFrom)
    B.addEdge(R.length == 3 ? K.delta64 : K.delta32, Off, *To, int64_t(Value + (Fixup - (*From)->address())));
  else
    B.addEdge(R.length == 3 ? K.negDelta64 : K.negDelta32, Off, **From, int64_t(Value - (Fixup - To->address())));
  return Error::success();
}

Error defineSectionRangeSymbols(LinkGraph &G) {
  std::vector<Symbol *> Externals = G.externalSymbols(); // changed below
  for (Symbol *S : Externals) {
    std::string_view N = S->name;
    bool Start = N.starts_with("section$start$");
    if (!Start && !N.starts_with("section$end$"))
      continue;
    std::string Name(N.substr(Start ? 14 : 12));
    auto Dollar = Name.find('$');
    if (Dollar == std::string::npos)
      continue;
    Name[Dollar] = ',';
    Section *Sec = G.findSectionByName(Name);
    if (!Sec)
      continue;
    Block *First = nullptr, *Last = nullptr;
    for (Block *B : Sec->blocks) {
      if (!First || B->address < First->address)
        First = B;
      if (!Last || B->address + B->size > Last->address + Last->size)
        Last = B;
    }
    if (!First)
      G.makeAbsolute(*S, 0);
    else if (Start)
      G.makeDefined(*S, *First, 0, 0, Linkage::Strong, Scope::Local, false);
    else
      G.makeDefined(*S, *Last, Last->size, 0, Linkage::Strong, Scope::Local, false);
  }
  return Error::success();
}

} // namespace linklab
