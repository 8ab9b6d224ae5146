#include "elf/elf_file.h"

#include <cstring>

namespace linklab {

bool isElf(std::span<const char> B) {
  return B.size() >= 4 && std::memcmp(B.data(),
                                      "\x7f"
                                      "ELF",
                                      4) == 0;
}

namespace {
// e_machine values a user may plausibly hand us, named for errors (ELF gABI).
const struct {
  uint16_t number;
  const char *constant, *description;
} Machines[] = {
    {3, "EM_386", "i386"},
    {8, "EM_MIPS", "MIPS"},
    {20, "EM_PPC", "PowerPC"},
    {21, "EM_PPC64", "PowerPC 64"},
    {22, "EM_S390", "S/390"},
    {40, "EM_ARM", "ARM"},
    {43, "EM_SPARCV9", "SPARC V9"},
    {62, "EM_X86_64", "x86-64"},
    {164, "EM_HEXAGON", "Hexagon"},
    {183, "EM_AARCH64", "AArch64"},
    {243, "EM_RISCV", "RISC-V"},
    {247, "EM_BPF", "BPF"},
    {258, "EM_LOONGARCH", "LoongArch"},
};
} // namespace

const char *elfMachineName(uint16_t M) {
  for (auto &E : Machines)
    if (E.number == M)
      return E.description;
  return "unknown";
}

const char *elfMachineConstant(uint32_t M) {
  for (auto &E : Machines)
    if (E.number == M)
      return E.constant;
  return nullptr;
}

static bool inBounds(uint64_t Off, uint64_t Size, uint64_t Total) { return Off <= Total && Size <= Total - Off; }

static std::string_view strAt(std::span<const char> Tab, uint64_t Off) {
  if (Off >= Tab.size())
    return {};
  const char *P = Tab.data() + Off;
  size_t Len = strnlen(P, Tab.size() - Off);
  return {P, Len};
}

// Field offsets and sizes of ELFCLASS32 and ELFCLASS64 (gABI, "ELF Header",
// "Section Header", "Symbol Table", "Relocation"): the only difference the
// reader sees between the two classes.
struct ElfClassLayout {
  unsigned ehSize, shOff, flags, shEntSize, shNum, shStrNdx; // header
  unsigned shdr, shFlags, shAddr, shOffset, shSize, shLink, shInfo, shAlign, shEntsize;
  unsigned sym, symValue, symSize, symInfo, symOther, symShndx;
  unsigned rel, rela, word; // entry sizes, and the size of an address/offset field
};
static constexpr ElfClassLayout Elf32 = {52, 32, 36, 46, 48, 50, 40, 8,  12, 16, 20, 24,
                                         28, 32, 36, 16, 4,  8,  12, 13, 14, 8,  12, 4};
static constexpr ElfClassLayout Elf64 = {64, 40, 48, 58, 60, 62, 64, 8, 16, 24, 32, 40,
                                         44, 48, 56, 24, 8,  16, 4,  5, 6,  16, 24, 8};

uint64_t ElfFile::readField(const char *P, unsigned Size) const {
  switch (Size) {
  case 1: return readData<uint8_t>(P, BigEndian);
  case 2: return readData<uint16_t>(P, BigEndian);
  case 4: return readData<uint32_t>(P, BigEndian);
  case 8: return readData<uint64_t>(P, BigEndian);
  }
  uint64_t V = 0;
  for (unsigned I = 0; I < Size; ++I)
    V |= uint64_t(uint8_t(P[BigEndian ? I : Size - 1 - I])) << (8 * (Size - 1 - I));
  return V;
}

// Symbol I as the table holds it, with the class and byte order fixed at
// compile time. Symbols are decoded when read, not as the file is parsed:
// Debian's RISC-V libc.a members hold thousands of assembler temporaries
// each (131,000 in the 336 members a hello world links), which a link
// mostly skips.
template <bool Is64, bool BigEndian> ElfSymbol ElfFile::decodeSymbol(size_t I) const {
  using Word = std::conditional_t<Is64, uint64_t, uint32_t>;
  const ElfClassLayout &L = Is64 ? Elf64 : Elf32;
  const char *P = SymEntries.data() + I * L.sym;
  ElfSymbol S;
  S.name = strAt(SymNames, readData<uint32_t>(P, BigEndian));
  uint8_t Info = uint8_t(P[L.symInfo]);
  S.bind = Info >> 4;
  S.type = Info & 0xf;
  S.visibility = uint8_t(P[L.symOther]) & 3;
  S.shndx = readData<uint16_t>(P + L.symShndx, BigEndian);
  if (S.shndx == elf::SHN_XINDEX) // parse checked the extended table has the entry
    S.shndx = readData<uint32_t>(SymShndx.data() + I * 4, BigEndian);
  S.value = readData<Word>(P + L.symValue, BigEndian);
  S.size = readData<Word>(P + L.symSize, BigEndian);
  return S;
}

// Reads symbols through decodeSymbol<Is64, BigEndian> from now on, after
// checking every entry once, reading only the fields that can be wrong.
template <bool Is64, bool BigEndian> Error ElfFile::bindSymbols() {
  Decode = &ElfFile::decodeSymbol<Is64, BigEndian>;
  const ElfClassLayout &L = Is64 ? Elf64 : Elf32;
  for (size_t I = 0; I < NumSymbols; ++I) {
    const char *P = SymEntries.data() + I * L.sym;
    uint32_t NameOff = readData<uint32_t>(P, BigEndian);
    if (NameOff && NameOff >= SymNames.size())
      return error(formatv("symbol %zu: name offset %s is outside the string table", I, hex(NameOff).c_str()));
    uint32_t Shndx = readData<uint16_t>(P + L.symShndx, BigEndian);
    bool Extended = Shndx == elf::SHN_XINDEX;
    if (Extended) {
      if ((I + 1) * 4 > SymShndx.size())
        return error(formatv("symbol %zu: SHN_XINDEX without an extended index table entry", I));
      Shndx = readData<uint32_t>(SymShndx.data() + I * 4, BigEndian);
    } else if (Shndx >= elf::SHN_LORESERVE && Shndx != elf::SHN_ABS && Shndx != elf::SHN_COMMON)
      return error(formatv("symbol %zu (%s): unsupported special section index %s", I,
                           std::string(symbol(I).name).c_str(), hex(Shndx).c_str()));
    // An extended index is a plain section number, whatever its value.
    if ((Shndx < elf::SHN_LORESERVE || Extended) && Shndx >= Sections.size())
      return error(formatv("symbol %zu (%s): section index %u is out of range (%zu sections)", I,
                           std::string(symbol(I).name).c_str(), Shndx, Sections.size()));
  }
  return Error::success();
}

Expected<ElfFile> ElfFile::parse(std::string Name, std::span<const char> B, bool WithSymbols) {
  ElfFile F;
  F.Name = std::move(Name);
  if (!isElf(B))
    return F.error("not an ELF object (bad magic)");
  if (B.size() < 6 || (B[4] != 1 && B[4] != 2))
    return F.error("bad ELF class (EI_CLASS is neither ELFCLASS32 nor ELFCLASS64)");
  if (B[5] != 1 && B[5] != 2)
    return F.error("bad ELF data encoding (EI_DATA is neither ELFDATA2LSB nor ELFDATA2MSB)");
  F.Is64 = B[4] == 2;
  F.BigEndian = B[5] == 2;
  const ElfClassLayout &L = F.Is64 ? Elf64 : Elf32;
  F.Layout = &L;
  if (B.size() < L.ehSize)
    return F.error(formatv("truncated ELF header (%zu bytes, need %u)", B.size(), L.ehSize));
  const char *H = B.data();
  auto U16 = [&](const char *P) { return uint16_t(F.readField(P, 2)); };
  auto U32 = [&](const char *P) { return uint32_t(F.readField(P, 4)); };
  auto Word = [&](const char *P) { return F.readField(P, L.word); };
  uint16_t Type = U16(H + 16);
  if (Type != elf::ET_REL)
    return F.error(formatv("not a relocatable object (e_type is %u, expected ET_REL)", Type));
  F.Machine = U16(H + 18);
  F.EFlags = U32(H + L.flags);
  uint64_t ShOff = Word(H + L.shOff);
  uint16_t ShEntSize = U16(H + L.shEntSize);
  uint64_t ShNum = U16(H + L.shNum);
  uint32_t ShStrNdx = U16(H + L.shStrNdx);
  if (ShOff == 0)
    return F.error("no section header table");
  if (ShEntSize != L.shdr)
    return F.error(formatv("bad section header size %u (expected %u)", ShEntSize, L.shdr));
  if (!inBounds(ShOff, L.shdr, B.size()))
    return F.error(formatv("section header table at %s is past the end of the file (size %s)", hex(ShOff).c_str(),
                           hex(B.size()).c_str()));
  // Extended numbering lives in section 0.
  if (ShNum == 0)
    ShNum = Word(H + ShOff + L.shSize);
  if (ShStrNdx == elf::SHN_XINDEX)
    ShStrNdx = U32(H + ShOff + L.shLink);
  if (ShNum > (B.size() - ShOff) / L.shdr)
    return F.error(formatv("section header table (%llu entries at %s) extends past the end of the file",
                           (unsigned long long)ShNum, hex(ShOff).c_str()));
  F.Sections.resize(ShNum);
  std::vector<uint32_t> NameOffsets(ShNum);
  for (uint64_t I = 0; I < ShNum; ++I) {
    const char *S = H + ShOff + I * L.shdr;
    ElfSection &Sec = F.Sections[I];
    NameOffsets[I] = U32(S);
    Sec.type = U32(S + 4);
    Sec.flags = Word(S + L.shFlags);
    Sec.addr = Word(S + L.shAddr);
    Sec.offset = Word(S + L.shOffset);
    Sec.size = Word(S + L.shSize);
    Sec.link = U32(S + L.shLink);
    Sec.info = U32(S + L.shInfo);
    Sec.addralign = Word(S + L.shAlign);
    Sec.entsize = Word(S + L.shEntsize);
    if (I == 0 || Sec.type == elf::SHT_NULL)
      continue;
    if (Sec.type != elf::SHT_NOBITS) {
      if (!inBounds(Sec.offset, Sec.size, B.size()))
        return F.error(formatv("section %llu: contents [%s, %s) extend past the end of the file (size %s)",
                               (unsigned long long)I, hex(Sec.offset).c_str(), hex(Sec.offset + Sec.size).c_str(),
                               hex(B.size()).c_str()));
      Sec.content = B.subspan(Sec.offset, Sec.size);
    }
    if (Sec.addralign > 1 && (Sec.addralign & (Sec.addralign - 1)))
      return F.error(formatv("section %llu: alignment %llu is not a power of two", (unsigned long long)I,
                             (unsigned long long)Sec.addralign));
  }
  if (ShStrNdx >= ShNum)
    return F.error(
        formatv("section name table index %u is out of range (%llu sections)", ShStrNdx, (unsigned long long)ShNum));
  std::span<const char> ShStrTab = F.Sections[ShStrNdx].content;
  for (uint64_t I = 1; I < ShNum; ++I) {
    if (NameOffsets[I] >= ShStrTab.size() && NameOffsets[I] != 0)
      return F.error(formatv("section %llu: name offset %s is outside the section name table", (unsigned long long)I,
                             hex(NameOffsets[I]).c_str()));
    F.Sections[I].name = strAt(ShStrTab, NameOffsets[I]);
  }

  // Symbol table (at most one in a relocatable object).
  const ElfSection *SymTab = nullptr;
  const ElfSection *ShndxTab = nullptr;
  for (uint32_t I = 1; I < ShNum; ++I) {
    const ElfSection &S = F.Sections[I];
    if (S.type == elf::SHT_SYMTAB) {
      if (SymTab)
        return F.error("more than one SHT_SYMTAB section");
      SymTab = &S;
      F.SymtabIndex = I;
    } else if (S.type == elf::SHT_SYMTAB_SHNDX)
      ShndxTab = &S;
  }
  if (!SymTab || !WithSymbols)
    return F;
  if (SymTab->entsize != L.sym)
    return F.error(formatv("symbol table entry size %llu (expected %u)", (unsigned long long)SymTab->entsize, L.sym));
  if (SymTab->link >= ShNum)
    return F.error(formatv("symbol table's string table index %u is out of range", SymTab->link));
  F.SymEntries = SymTab->content;
  F.SymNames = F.Sections[SymTab->link].content;
  F.SymShndx = ShndxTab ? ShndxTab->content : std::span<const char>();
  F.NumSymbols = SymTab->size / L.sym;
  auto Bind = F.Is64 ? (F.BigEndian ? &ElfFile::bindSymbols<true, true> : &ElfFile::bindSymbols<true, false>)
                     : (F.BigEndian ? &ElfFile::bindSymbols<false, true> : &ElfFile::bindSymbols<false, false>);
  if (Error E = (F.*Bind)())
    return E;
  return F;
}

Expected<ElfRelocs> ElfFile::relocations(const ElfSection &Sec) const {
  bool HasAddend = Sec.type == elf::SHT_RELA;
  unsigned Size = HasAddend ? Layout->rela : Layout->rel;
  if (Sec.entsize != Size)
    return error(formatv("relocation section %s: entry size %llu (expected %u)", std::string(Sec.name).c_str(),
                         (unsigned long long)Sec.entsize, Size));
  ElfRelocs Out(Sec.content, Size, Is64, BigEndian, HasAddend);
  // Symbol indices are checked here, once, so the view's users need not.
  auto Check = [&]<typename Word>() -> Error {
    for (size_t I = 0; I < Out.size(); ++I) {
      uint32_t Sym = ElfRelocs::symOf(readData<Word>(Sec.content.data() + I * Size + sizeof(Word), BigEndian));
      if (Sym >= NumSymbols && Sym != 0)
        return error(formatv("relocation section %s: entry %zu refers to symbol index %u, but the symbol table has "
                             "%zu entries",
                             std::string(Sec.name).c_str(), I, Sym, NumSymbols));
    }
    return Error::success();
  };
  if (Error E = Is64 ? Check.template operator()<uint64_t>() : Check.template operator()<uint32_t>())
    return E;
  return Out;
}

} // namespace linklab
