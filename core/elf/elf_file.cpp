#include "elf/elf_file.h"

#include "support/bits.h"

#include <cstring>

namespace linklab {

bool isElf(std::span<const char> B) { return B.size() >= 4 && std::memcmp(B.data(), "\x7f" "ELF", 4) == 0; }

namespace {
// e_machine values a user may plausibly hand us, named for errors (ELF gABI).
const struct {
  uint16_t number;
  const char *constant, *description;
} Machines[] = {
    {3, "EM_386", "i386"},          {8, "EM_MIPS", "MIPS"},          {20, "EM_PPC", "PowerPC"},
    {21, "EM_PPC64", "PowerPC 64"}, {22, "EM_S390", "S/390"},        {40, "EM_ARM", "ARM"},
    {43, "EM_SPARCV9", "SPARC V9"}, {62, "EM_X86_64", "x86-64"},     {164, "EM_HEXAGON", "Hexagon"},
    {183, "EM_AARCH64", "AArch64"}, {243, "EM_RISCV", "RISC-V"},     {247, "EM_BPF", "BPF"},
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

Expected<ElfFile> ElfFile::parse(std::string Name, std::span<const char> B) {
  ElfFile F;
  F.Name = std::move(Name);
  if (!isElf(B))
    return F.error("not an ELF object (bad magic)");
  if (B.size() < 64)
    return F.error(formatv("truncated ELF header (%zu bytes, need 64)", B.size()));
  if (B[4] != 2)
    return F.error("only 64-bit ELF objects are supported (EI_CLASS is not ELFCLASS64)");
  if (B[5] != 1)
    return F.error("only little-endian ELF objects are supported (EI_DATA is not ELFDATA2LSB)");
  const char *H = B.data();
  uint16_t Type = readLE<uint16_t>(H + 16);
  if (Type != elf::ET_REL)
    return F.error(formatv("not a relocatable object (e_type is %u, expected ET_REL)", Type));
  F.Machine = readLE<uint16_t>(H + 18);
  F.EFlags = readLE<uint32_t>(H + 48);
  uint64_t ShOff = readLE<uint64_t>(H + 40);
  uint16_t ShEntSize = readLE<uint16_t>(H + 58);
  uint64_t ShNum = readLE<uint16_t>(H + 60);
  uint32_t ShStrNdx = readLE<uint16_t>(H + 62);
  if (ShOff == 0)
    return F.error("no section header table");
  if (ShEntSize != 64)
    return F.error(formatv("bad section header size %u (expected 64)", ShEntSize));
  if (!inBounds(ShOff, 64, B.size()))
    return F.error(formatv("section header table at %s is past the end of the file (size %s)", hex(ShOff).c_str(),
                           hex(B.size()).c_str()));
  // Extended numbering lives in section 0.
  if (ShNum == 0)
    ShNum = readLE<uint64_t>(H + ShOff + 32);
  if (ShStrNdx == elf::SHN_XINDEX)
    ShStrNdx = readLE<uint32_t>(H + ShOff + 40);
  if (ShNum > (B.size() - ShOff) / 64)
    return F.error(formatv("section header table (%llu entries at %s) extends past the end of the file",
                           (unsigned long long)ShNum, hex(ShOff).c_str()));
  F.Sections.resize(ShNum);
  std::vector<uint32_t> NameOffsets(ShNum);
  for (uint64_t I = 0; I < ShNum; ++I) {
    const char *S = H + ShOff + I * 64;
    ElfSection &Sec = F.Sections[I];
    NameOffsets[I] = readLE<uint32_t>(S);
    Sec.type = readLE<uint32_t>(S + 4);
    Sec.flags = readLE<uint64_t>(S + 8);
    Sec.addr = readLE<uint64_t>(S + 16);
    Sec.offset = readLE<uint64_t>(S + 24);
    Sec.size = readLE<uint64_t>(S + 32);
    Sec.link = readLE<uint32_t>(S + 40);
    Sec.info = readLE<uint32_t>(S + 44);
    Sec.addralign = readLE<uint64_t>(S + 48);
    Sec.entsize = readLE<uint64_t>(S + 56);
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
    return F.error(formatv("section name table index %u is out of range (%llu sections)", ShStrNdx,
                           (unsigned long long)ShNum));
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
  if (!SymTab)
    return F;
  if (SymTab->entsize != 24)
    return F.error(formatv("symbol table entry size %llu (expected 24)", (unsigned long long)SymTab->entsize));
  if (SymTab->link >= ShNum)
    return F.error(formatv("symbol table's string table index %u is out of range", SymTab->link));
  std::span<const char> StrTab = F.Sections[SymTab->link].content;
  size_t NSyms = SymTab->size / 24;
  F.Symbols.resize(NSyms);
  for (size_t I = 0; I < NSyms; ++I) {
    const char *P = SymTab->content.data() + I * 24;
    ElfSymbol &S = F.Symbols[I];
    uint32_t NameOff = readLE<uint32_t>(P);
    if (NameOff && NameOff >= StrTab.size())
      return F.error(formatv("symbol %zu: name offset %s is outside the string table", I, hex(NameOff).c_str()));
    S.name = strAt(StrTab, NameOff);
    uint8_t Info = uint8_t(P[4]);
    S.bind = Info >> 4;
    S.type = Info & 0xf;
    S.visibility = uint8_t(P[5]) & 3;
    S.shndx = readLE<uint16_t>(P + 6);
    S.value = readLE<uint64_t>(P + 8);
    S.size = readLE<uint64_t>(P + 16);
    if (S.shndx == elf::SHN_XINDEX) {
      if (!ShndxTab || (I + 1) * 4 > ShndxTab->content.size())
        return F.error(formatv("symbol %zu: SHN_XINDEX without an extended index table entry", I));
      S.shndx = readLE<uint32_t>(ShndxTab->content.data() + I * 4);
    } else if (S.shndx >= elf::SHN_LORESERVE && S.shndx != elf::SHN_ABS && S.shndx != elf::SHN_COMMON)
      return F.error(formatv("symbol %zu (%s): unsupported special section index %s", I, std::string(S.name).c_str(),
                             hex(S.shndx).c_str()));
    if (S.shndx < elf::SHN_LORESERVE && S.shndx >= ShNum)
      return F.error(formatv("symbol %zu (%s): section index %u is out of range (%llu sections)", I,
                             std::string(S.name).c_str(), S.shndx, (unsigned long long)ShNum));
  }
  return F;
}

Expected<std::vector<ElfRela>> ElfFile::relocations(const ElfSection &Sec) const {
  if (Sec.entsize != 24)
    return error(formatv("relocation section %s: entry size %llu (expected 24)", std::string(Sec.name).c_str(),
                         (unsigned long long)Sec.entsize));
  size_t N = Sec.size / 24;
  std::vector<ElfRela> Out(N);
  for (size_t I = 0; I < N; ++I) {
    const char *P = Sec.content.data() + I * 24;
    uint64_t Info = readLE<uint64_t>(P + 8);
    Out[I] = {readLE<uint64_t>(P), uint32_t(Info), uint32_t(Info >> 32), readLE<int64_t>(P + 16)};
    if (Out[I].sym >= Symbols.size() && !(Out[I].sym == 0))
      return error(formatv("relocation section %s: entry %zu refers to symbol index %u, but the symbol table has %zu "
                           "entries",
                           std::string(Sec.name).c_str(), I, Out[I].sym, Symbols.size()));
  }
  return Out;
}

} // namespace linklab
