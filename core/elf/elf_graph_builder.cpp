#include "elf/elf_graph_builder.h"

#include "elf/elf_ifunc.h"

#include <cstring>
#include <string>

namespace linklab {

static bool isDwarfSection(std::string_view N) { return N.starts_with(".debug_") || N.starts_with(".zdebug_"); }

// Sections whose blocks must survive dead-stripping although nothing refers
// to them: the runtime walks them (constructors, destructors).
static bool isKeepAliveSection(const ElfSection &S) {
  return S.type == elf::SHT_INIT_ARRAY || S.type == elf::SHT_FINI_ARRAY || S.type == elf::SHT_PREINIT_ARRAY ||
         S.name.starts_with(".init_array") || S.name.starts_with(".fini_array") || S.name.starts_with(".ctors") ||
         S.name.starts_with(".dtors");
}

// The OS an object's EI_OSABI names, spelled as LLVM's ELFObjectFile::makeTriple
// spells it in the graph's triple ("x86_64--freebsd"); ELFOSABI_NONE names none.
// Nothing links differently for it.
static const char *osOfABI(uint8_t OSABI) {
  static const struct {
    uint8_t abi;
    const char *os;
  } Table[] = {{2, "netbsd"},   {3, "linux"}, {4, "hurd"},    {6, "solaris"}, {7, "aix"},    {9, "freebsd"},
               {12, "openbsd"}, {51, "cuda"}, {64, "amdhsa"}, {65, "amdpal"}, {66, "mesa3d"}};
  for (auto &E : Table)
    if (E.abi == OSABI)
      return E.os;
  return "";
}

Expected<std::unique_ptr<LinkGraph>> ElfGraphBuilder::build(const TargetInfo &T, std::string Name, GraphBuffer Buffer,
                                                            RelocationMapper Map, bool AcceptsRel,
                                                            SymbolFlagsFn Flags) {
  auto F = ElfFile::parse(Name, Buffer.span());
  if (!F)
    return F.takeError();
  ElfGraphBuilder B(std::move(*F), T, Map, AcceptsRel, Flags);
  Triple TT = targetTriple(T);
  TT.str += osOfABI(uint8_t(Buffer[7])); // EI_OSABI: only the name changes, as in LLVM's triple
  B.G = std::make_unique<LinkGraph>(std::move(Name), std::move(TT), T.arch.edgeKindName);
  B.G->retainBuffer(std::move(Buffer));
  if (Error E = B.graphifySections())
    return E;
  if (Error E = B.graphifySymbols())
    return E;
  if (Error E = B.addRelocations())
    return E;
  return std::move(B.G);
}

Error ElfGraphBuilder::graphifySections() {
  const auto &Secs = File.sections();
  BlockBySection.assign(Secs.size(), nullptr);
  for (size_t I = 1; I < Secs.size(); ++I) {
    const ElfSection &S = Secs[I];
    if (S.type == elf::SHT_NULL || isDwarfSection(S.name) || (S.flags & elf::SHF_COMPRESSED))
      continue;
    MemProt Prot = MemProt::Read;
    if (S.flags & elf::SHF_EXECINSTR)
      Prot = Prot | MemProt::Exec;
    if (S.flags & elf::SHF_WRITE)
      Prot = Prot | MemProt::Write;
    Section *GS = G->findSectionByName(S.name);
    if (!GS) {
      GS = &G->createSection(S.name, Prot);
      if (!(S.flags & elf::SHF_ALLOC))
        GS->lifetime = MemLifetime::NoAlloc;
    } else if (GS->prot != Prot)
      return File.error(formatv("section %s appears twice with different protections (%s vs %s)",
                                std::string(S.name).c_str(), protString(GS->prot).c_str(), protString(Prot).c_str()));
    uint64_t Align = S.addralign ? S.addralign : 1;
    Block &B = S.type == elf::SHT_NOBITS ? G->createZeroFillBlock(*GS, S.size, S.addr, Align, 0)
                                         : G->createContentBlock(*GS, S.content, S.addr, Align, 0);
    BlockBySection[I] = &B;
    if ((S.flags & elf::SHF_ALLOC) && isKeepAliveSection(S))
      G->addAnonymousSymbol(B, 0, 0, false, true);
  }
  return Error::success();
}

static bool isAssemblerTemporary(const ElfSymbol &S) {
  return S.bind == elf::STB_LOCAL && S.type == elf::STT_NOTYPE && S.name.starts_with(".L");
}

std::pair<Linkage, Scope> ElfGraphBuilder::linkageAndScope(const ElfSymbol &S) const {
  // A global in a COMDAT group's section (i386's __x86.get_pc_thunk.*, in
  // every libc.a member using it) is one copy among many, as a static
  // linker keeps the first group of a signature: weak here.
  bool InGroup = S.shndx && S.shndx < File.sections().size() && (File.sections()[S.shndx].flags & elf::SHF_GROUP);
  return {S.bind == elf::STB_WEAK || InGroup ? Linkage::Weak : Linkage::Strong,
          S.bind == elf::STB_LOCAL                                                 ? Scope::Local
          : (S.visibility == elf::STV_HIDDEN || S.visibility == elf::STV_INTERNAL) ? Scope::Hidden
                                                                                   : Scope::Default};
}

Error ElfGraphBuilder::graphifySymbols() {
  SymbolByIndex.assign(File.symbolCount(), nullptr);
  Section *Common = nullptr;
  for (size_t I = 0; I < File.symbolCount(); ++I) {
    const ElfSymbol S = File.symbol(I);
    if (S.type == elf::STT_FILE)
      continue;
    if (S.shndx == elf::SHN_COMMON) {
      Scope Sc = linkageAndScope(S).second;
      if (!Common)
        Common = &G->createSection(".common", MemProt::Read | MemProt::Write);
      uint64_t Align = S.value ? S.value : 1;
      if (Align & (Align - 1))
        return File.error(formatv("common symbol %s: alignment %llu is not a power of two", std::string(S.name).c_str(),
                                  (unsigned long long)Align));
      SymbolByIndex[I] =
          &G->addCommonSymbol(S.name, Sc == Scope::Local ? Scope::Default : Sc, *Common, S.size, Align, false);
      continue;
    }
    if (S.shndx == elf::SHN_UNDEF) {
      if (S.bind == elf::STB_GLOBAL || S.bind == elf::STB_WEAK) {
        SymbolByIndex[I] = &G->addExternalSymbol(S.name, S.size, S.bind == elf::STB_WEAK);
      } else if (S.name.empty()) {
        // The null symbol: target of relocations with no symbol (R_RISCV_ALIGN...).
        // (Not formatv: every graph makes one, and Emscripten's printf is slow.)
        auto Name = G->allocateString("__jitlink_ELF_SYM_UND_" + std::to_string(I));
        SymbolByIndex[I] = &G->addAbsoluteSymbol(Name, 0, 0, Linkage::Strong, Scope::Local, false);
      } else
        return File.error(
            formatv("symbol %zu (%s): undefined symbol with local binding", I, std::string(S.name).c_str()));
      continue;
    }
    if (S.shndx == elf::SHN_ABS) {
      auto [L, Sc] = linkageAndScope(S);
      SymbolByIndex[I] = &G->addAbsoluteSymbol(S.name, S.value, S.size, L, Sc, false);
      continue;
    }
    Block *B = BlockBySection[S.shndx];
    if (!B)
      continue; // a symbol in a skipped (debug) section
    uint64_t Value = S.value;
    uint8_t TargetFlags = Flags ? Flags(S, Value) : 0;
    // GCC's section anchors (.LANCHORn: local, untyped, no size) may sit
    // past the end of the .bss they anchor, which code addresses at
    // negative offsets from them: the zero-fill block grows to hold it, as
    // the static linker's address for it would be.
    if (Value > B->size && B->isZeroFill() && S.bind == elf::STB_LOCAL && S.type == elf::STT_NOTYPE && !S.size)
      B->size = Value;
    if (Value > B->size || S.size > B->size - Value)
      return File.error(formatv("symbol %s [%s, %s) extends past the end of section %s (size %s)",
                                S.name.empty() ? "<anon>" : std::string(S.name).c_str(), hex(Value).c_str(),
                                hex(Value + S.size).c_str(), std::string(B->section->name).c_str(),
                                hex(B->size).c_str()));
    // Assembler temporaries (.L labels, local and untyped) that no
    // relocation names are no symbols of the program: static linkers drop
    // them (ld's --discard-locals), and llvm-mc never writes them. GNU as
    // keeps those its debug info used, and stripping the debug info leaves
    // them: 428,000 in Debian's RISC-V libc.a, 95% of its symbols. One is
    // made when a relocation asks for it (lateTarget).
    if (isAssemblerTemporary(S))
      continue;
    Symbol &Sym = addDefined(I, S, *B, Value);
    Sym.targetFlags = TargetFlags;
    if (S.type == elf::STT_GNU_IFUNC) {
      if (!hasProt(B->section->prot, MemProt::Exec))
        return File.error(formatv("IFUNC symbol %s: its resolver is not in an executable section (%s)",
                                  std::string(S.name).c_str(), std::string(B->section->name).c_str()));
      IFuncs.push_back(SymbolByIndex[I]);
    }
  }
  // Relocations against an IFUNC symbol reach its stub.
  return lowerIndirectFunctions(*G, Target, IFuncs);
}

// The eh_frame pass gives each function an edge keeping its FDE alive: room
// for those is reserved with the relocations (one per .eh_frame relocation
// into a section bounds them), so a .text block of hundreds of thousands of
// edges is not copied to grow by a few thousand.
std::vector<uint32_t> ElfGraphBuilder::unwindEdgesBySection() const {
  const auto &Secs = File.sections();
  std::vector<uint32_t> Count(Secs.size(), 0);
  for (const ElfSection &RS : Secs) {
    if ((RS.type != elf::SHT_RELA && RS.type != elf::SHT_REL) || RS.info >= Secs.size() ||
        Secs[RS.info].name != ".eh_frame")
      continue;
    auto Relocs = File.relocations(RS);
    if (!Relocs) { // addRelocations reports it
      consumeError(Relocs.takeError());
      continue;
    }
    for (const ElfRela &R : *Relocs)
      if (R.sym < File.symbolCount())
        if (uint32_t Shndx = File.symbol(R.sym).shndx; Shndx < Count.size())
          ++Count[Shndx];
  }
  return Count;
}

Error ElfGraphBuilder::addRelocations() {
  const auto &Secs = File.sections();
  std::vector<uint32_t> UnwindEdges = unwindEdgesBySection();
  for (const ElfSection &RS : Secs) {
    if (RS.type == elf::SHT_REL && !AcceptsRel)
      return File.error(formatv("section %s: SHT_REL relocations are not supported on %s", std::string(RS.name).c_str(),
                                Target.arch.name));
    if (RS.type != elf::SHT_RELA && RS.type != elf::SHT_REL)
      continue;
    if (RS.info >= Secs.size())
      return File.error(formatv("relocation section %s: target section index %u is out of range",
                                std::string(RS.name).c_str(), RS.info));
    if (RS.link != File.symtabIndex())
      return File.error(
          formatv("relocation section %s: sh_link %u is not the symbol table", std::string(RS.name).c_str(), RS.link));
    Block *Target = BlockBySection[RS.info];
    if (!Target)
      continue; // relocations for a skipped (debug) section
    auto Relocs = File.relocations(RS);
    if (!Relocs)
      return Relocs.takeError();
    Target->edges.reserve(Target->edges.size() + Relocs->size() + UnwindEdges[RS.info]);
    if (Error E = Map(*this, *Target, *Relocs))
      return E;
  }
  return Error::success();
}

Symbol &ElfGraphBuilder::addDefined(size_t Index, const ElfSymbol &S, Block &B, uint64_t Value) {
  auto [L, Sc] = linkageAndScope(S);
  // A section symbol is anonymous unless the object names it (st_name):
  // JITLink then defines it under that name, as LLVM's RISCV/ELF_ehframe.test
  // reads its `eh_frame`.
  return *(SymbolByIndex[Index] =
               S.name.empty() ? &G->addAnonymousSymbol(B, Value, S.size, false, false)
                              : &G->addDefinedSymbol(B, Value, S.name, S.size, L, Sc, S.type == elf::STT_FUNC, false));
}

Expected<Symbol *> ElfGraphBuilder::lateTarget(const Block &B, const ElfRela &R) {
  // An assembler temporary graphifySymbols left out (checked there).
  if (R.sym < SymbolByIndex.size()) {
    const ElfSymbol S = File.symbol(R.sym);
    if (isAssemblerTemporary(S) && S.shndx < BlockBySection.size() && BlockBySection[S.shndx]) {
      uint64_t Value = S.value;
      uint8_t TargetFlags = Flags ? Flags(S, Value) : 0;
      Symbol &Sym = addDefined(R.sym, S, *BlockBySection[S.shndx], Value);
      Sym.targetFlags = TargetFlags;
      return &Sym;
    }
  }
  return makeError(formatv("%s: %s+%s: relocation refers to symbol index %u, which has no graph symbol",
                           File.name().c_str(), std::string(B.section->name).c_str(), hex(R.offset).c_str(), R.sym));
}

Error ElfGraphBuilder::relocError(const Block &B, const ElfRela &R, const char *TypeName,
                                  const std::string &Problem) const {
  return makeError(formatv("%s: %s+%s: %s (type %u): %s", File.name().c_str(), std::string(B.section->name).c_str(),
                           hex(R.offset).c_str(), TypeName ? TypeName : "unknown relocation", R.type, Problem.c_str()));
}

Error ElfGraphBuilder::addTableEdge(const ElfRelocTable &Table, Block &B, const ElfRela &R) {
  auto T = linkedType(Table, B, R);
  if (!T)
    return T.takeError();
  if ((*T)->kind == NoEdgeReloc)
    return Error::success();
  if (Error E = checkFixupInBlock(B, R, (*T)->width, (*T)->name))
    return E;
  auto Sym = relocTarget(B, R);
  if (!Sym)
    return Sym.takeError();
  int64_t Addend = addendOf(B, R, (*T)->width);
  B.addEdge((*T)->kind, uint32_t(R.offset), **Sym, int64_t(uint64_t(Addend) + uint64_t((*T)->addendAdjust)));
  return Error::success();
}

Error ElfGraphBuilder::pastEndError(const Block &B, const ElfRela &R, unsigned Width, const char *TypeName) const {
  return relocError(B, R, TypeName,
                    formatv("%u-byte fixup at offset %s extends past the end of the section (size %s)", Width,
                            hex(R.offset).c_str(), hex(B.size).c_str()));
}

int64_t ElfGraphBuilder::addendOf(const Block &B, const ElfRela &R, unsigned Width) const {
  if (!R.implicitAddend || Width == 0 || B.content().size() < R.offset + Width)
    return R.addend;
  uint64_t V = File.readField(B.content().data() + R.offset, Width);
  unsigned Shift = 64 - 8 * Width;
  return int64_t(V << Shift) >> Shift;
}

static Expected<ObjectIdentity> identifyElf(const std::string &Name, std::span<const char> B) {
  // e_ident (16 bytes), e_type, e_machine: all identify needs.
  if (B.size() < 20)
    return makeError(formatv("%s: truncated ELF header (%zu bytes, need %u)", Name.c_str(), B.size(),
                             B.size() > 4 && B[4] == 1 ? 52u : 64u));
  uint8_t Class = uint8_t(B[4]), Data = uint8_t(B[5]);
  if (Class != 1 && Class != 2)
    return makeError(
        formatv("%s: bad ELF class %u (EI_CLASS is neither ELFCLASS32 nor ELFCLASS64)", Name.c_str(), Class));
  if (Data != 1 && Data != 2)
    return makeError(
        formatv("%s: bad ELF data encoding %u (EI_DATA is neither ELFDATA2LSB nor ELFDATA2MSB)", Name.c_str(), Data));
  uint16_t Machine =
      Data == 1 ? uint16_t(uint8_t(B[18]) | uint8_t(B[19]) << 8) : uint16_t(uint8_t(B[18]) << 8 | uint8_t(B[19]));
  return ObjectIdentity{Machine, uint8_t(Class == 1 ? 4 : 8), Data == 2, osOfABI(uint8_t(B[7]))};
}

const ObjectFormatRow ElfFormat = {ObjectFormat::ELF, "ELF", "--", isElf, identifyElf, elfMachineConstant};

} // namespace linklab
