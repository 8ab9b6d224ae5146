#include "elf/elf_names.h"

#include "elf/elf_file.h"

#include <utility>

namespace linklab::elf {

namespace {

template <typename T, size_t N> const char *lookup(const std::pair<T, const char *> (&Table)[N], T Key) {
  for (const auto &[K, Name] : Table)
    if (K == Key)
      return Name;
  return nullptr;
}

const std::pair<uint8_t, const char *> SymbolTypes[] = {
    {STT_NOTYPE, "NOTYPE"}, {STT_OBJECT, "OBJECT"}, {STT_FUNC, "FUNC"}, {STT_SECTION, "SECTION"},
    {STT_FILE, "FILE"},     {STT_COMMON, "COMMON"}, {STT_TLS, "TLS"},   {STT_GNU_IFUNC, "IFUNC"},
};
const std::pair<uint8_t, const char *> SymbolBinds[] = {
    {STB_LOCAL, "LOCAL"},
    {STB_GLOBAL, "GLOBAL"},
    {STB_WEAK, "WEAK"},
    {STB_GNU_UNIQUE, "UNIQUE"},
};
// The ELF gABI's section types and the GNU/LLVM ones objects carry
// (processor-specific types depend on the machine and are left as numbers).
const std::pair<uint32_t, const char *> SectionTypes[] = {
    {0, "NULL"},
    {1, "PROGBITS"},
    {2, "SYMTAB"},
    {3, "STRTAB"},
    {4, "RELA"},
    {5, "HASH"},
    {6, "DYNAMIC"},
    {7, "NOTE"},
    {8, "NOBITS"},
    {9, "REL"},
    {11, "DYNSYM"},
    {14, "INIT_ARRAY"},
    {15, "FINI_ARRAY"},
    {16, "PREINIT_ARRAY"},
    {17, "GROUP"},
    {18, "SYMTAB_SHNDX"},
    {0x6fff4c03, "LLVM_ADDRSIG"},
    {0x6ffffff5, "GNU_ATTRIBUTES"},
};
const std::pair<uint32_t, const char *> SpecialIndices[] = {
    {SHN_UNDEF, "UND"},
    {SHN_ABS, "ABS"},
    {SHN_COMMON, "COMMON"},
};

} // namespace

const char *symbolTypeName(uint8_t Type) { return lookup(SymbolTypes, Type); }
const char *symbolBindName(uint8_t Bind) { return lookup(SymbolBinds, Bind); }
const char *sectionTypeName(uint32_t Type) { return lookup(SectionTypes, Type); }
const char *specialSectionIndexName(uint32_t Index) { return lookup(SpecialIndices, Index); }

} // namespace linklab::elf
