// A validated view of an ELF relocatable object of either class (32/64-bit)
// and either byte order. Every
// offset, size and index read from the file is checked against the buffer
// before use; a violation is an Error naming the object and the field.
#pragma once

#include "support/bits.h"
#include "support/error.h"

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace linklab {

namespace elf {
enum : uint32_t {
  SHT_NULL = 0,
  SHT_PROGBITS = 1,
  SHT_SYMTAB = 2,
  SHT_STRTAB = 3,
  SHT_RELA = 4,
  SHT_NOTE = 7,
  SHT_NOBITS = 8,
  SHT_REL = 9,
  SHT_DYNSYM = 11,
  SHT_INIT_ARRAY = 14,
  SHT_FINI_ARRAY = 15,
  SHT_PREINIT_ARRAY = 16,
  SHT_GROUP = 17,
  SHT_SYMTAB_SHNDX = 18,
};
enum : uint64_t {
  SHF_WRITE = 1,
  SHF_ALLOC = 2,
  SHF_EXECINSTR = 4,
  SHF_MERGE = 0x10,
  SHF_STRINGS = 0x20,
  SHF_GROUP = 0x200,
  SHF_TLS = 0x400,
  SHF_COMPRESSED = 0x800
};
enum : uint8_t { STB_LOCAL = 0, STB_GLOBAL = 1, STB_WEAK = 2, STB_GNU_UNIQUE = 10 };
enum : uint8_t {
  STT_NOTYPE = 0,
  STT_OBJECT = 1,
  STT_FUNC = 2,
  STT_SECTION = 3,
  STT_FILE = 4,
  STT_COMMON = 5,
  STT_TLS = 6,
  STT_GNU_IFUNC = 10
};
enum : uint8_t { STV_DEFAULT = 0, STV_INTERNAL = 1, STV_HIDDEN = 2, STV_PROTECTED = 3 };
enum : uint16_t { SHN_UNDEF = 0, SHN_LORESERVE = 0xff00, SHN_ABS = 0xfff1, SHN_COMMON = 0xfff2, SHN_XINDEX = 0xffff };
enum : uint16_t { EM_ARM = 40, EM_X86_64 = 62, EM_AARCH64 = 183, EM_RISCV = 243 };
enum : uint16_t { ET_REL = 1, ET_EXEC = 2 };
} // namespace elf

struct ElfSection {
  std::string_view name;
  uint32_t type;
  uint64_t flags;
  uint64_t addr;
  uint64_t offset;
  uint64_t size;
  uint32_t link;
  uint32_t info;
  uint64_t addralign;
  uint64_t entsize;
  std::span<const char> content; // empty for SHT_NOBITS
};

struct ElfSymbol {
  std::string_view name;
  uint8_t bind, type, visibility;
  uint32_t shndx; // SHN_XINDEX already resolved
  uint64_t value, size;
};

struct ElfClassLayout;

// A relocation entry. An SHT_REL entry keeps its addend in the bytes it
// relocates (ElfGraphBuilder::addendOf reads it); addend is 0 there.
struct ElfRela {
  uint64_t offset;
  uint32_t type;
  uint32_t sym;
  int64_t addend;
  bool implicitAddend = false; // an SHT_REL entry
};

// A relocation section's entries (already validated), decoded on access:
// tables of hundreds of thousands of entries are read once, in order, and a
// decoded copy would cost 32 bytes of fresh memory per entry.
class ElfRelocs {
public:
  ElfRelocs(std::span<const char> Data, unsigned EntSize, bool Is64, bool BigEndian, bool HasAddend)
      : Data(Data.data()), Count(Data.size() / EntSize), EntSize(EntSize), Is64(Is64), BigEndian(BigEndian),
        HasAddend(HasAddend) {}
  size_t size() const { return Count; }
  bool empty() const { return Count == 0; }
  ElfRela operator[](size_t I) const { return Is64 ? decode<uint64_t>(I) : decode<uint32_t>(I); }

  class iterator {
  public:
    iterator(const ElfRelocs *T, size_t I) : T(T), I(I) {}
    ElfRela operator*() const { return (*T)[I]; }
    iterator &operator++() { return ++I, *this; }
    bool operator==(const iterator &O) const { return I == O.I; }

  private:
    const ElfRelocs *T;
    size_t I;
  };
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, Count}; }

  // r_info: symbol above the type, which is 8 bits in ELF32 and 32 in ELF64.
  template <typename Word> static uint32_t symOf(Word Info) {
    return sizeof(Word) == 8 ? uint32_t(uint64_t(Info) >> 32) : uint32_t(Info >> 8);
  }

private:
  template <typename Word> ElfRela decode(size_t I) const {
    constexpr unsigned W = sizeof(Word);
    const char *P = Data + I * EntSize;
    Word Info = readData<Word>(P + W, BigEndian);
    uint32_t Type = W == 8 ? uint32_t(Info) : uint32_t(Info & 0xff);
    int64_t Addend = !HasAddend ? 0
                     : W == 8   ? int64_t(readData<uint64_t>(P + 2 * W, BigEndian))
                                : int32_t(readData<uint32_t>(P + 2 * W, BigEndian));
    return {readData<Word>(P, BigEndian), Type, symOf(Info), Addend, !HasAddend};
  }
  const char *Data;
  size_t Count;
  unsigned EntSize;
  bool Is64, BigEndian, HasAddend;
};

class ElfFile {
public:
  // Parses the headers, section table and symbol table of Bytes (which must
  // outlive the ElfFile). Name is used in every diagnostic. WithSymbols
  // false leaves no symbols, for a reader needing only the sections.
  static Expected<ElfFile> parse(std::string Name, std::span<const char> Bytes, bool WithSymbols = true);

  const std::string &name() const { return Name; }
  uint16_t machine() const { return Machine; }
  uint32_t flags() const { return EFlags; }
  bool is64() const { return Is64; }
  bool bigEndian() const { return BigEndian; }
  // An unsigned Size-byte field at P in the file's byte order.
  uint64_t readField(const char *P, unsigned Size) const;
  const std::vector<ElfSection> &sections() const { return Sections; }
  size_t symbolCount() const { return NumSymbols; }
  // Symbol I (< symbolCount()), decoded from the table parse checked.
  ElfSymbol symbol(size_t I) const { return (this->*Decode)(I); }
  uint32_t symtabIndex() const { return SymtabIndex; }
  // The entries of a SHT_RELA or SHT_REL section, validated against the file and symtab.
  Expected<ElfRelocs> relocations(const ElfSection &Rela) const;
  Error error(const std::string &Msg) const { return makeError(Name + ": " + Msg); }

private:
  template <bool Is64, bool BigEndian> ElfSymbol decodeSymbol(size_t I) const;
  template <bool Is64, bool BigEndian> Error bindSymbols();
  std::string Name;
  uint16_t Machine = 0;
  uint32_t EFlags = 0;
  bool Is64 = true, BigEndian = false;
  const ElfClassLayout *Layout = nullptr;
  std::vector<ElfSection> Sections;
  std::span<const char> SymEntries, SymNames, SymShndx; // the symbol table, its strings, SHT_SYMTAB_SHNDX
  size_t NumSymbols = 0;
  ElfSymbol (ElfFile::*Decode)(size_t) const = nullptr;
  uint32_t SymtabIndex = 0;
};

// True if Bytes starts with the ELF magic.
bool isElf(std::span<const char> Bytes);
const char *elfMachineName(uint16_t Machine);     // "x86-64", "unknown"
const char *elfMachineConstant(uint32_t Machine); // "EM_X86_64", or null

} // namespace linklab
