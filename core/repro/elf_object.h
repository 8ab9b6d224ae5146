// An ELF relocatable object as editable data: sections with their bytes and
// relocations, and symbols, with every cross-reference an index into this
// model rather than a file offset. The reducer edits it; the writers turn it
// back into an object (writeElf), assembly (asm_writer) or yaml2obj YAML
// (yaml_writer). Only what a relocatable object needs is kept: the symbol
// table, string tables and relocation sections are regenerated on write.
#pragma once

#include "support/error.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace linklab {
struct TargetInfo;
}

namespace linklab::repro {

struct ObjReloc {
  uint64_t offset;
  uint32_t type;
  uint32_t symbol; // index into ElfObject::symbols (0: none)
  int64_t addend;
};

struct ObjSection {
  std::string name;
  uint32_t type = 0;
  uint64_t flags = 0, addralign = 1, entsize = 0;
  uint32_t link = 0, info = 0; // as read, for section types the model does not interpret
  std::vector<char> bytes;     // empty for SHT_NOBITS
  uint64_t size = 0;           // SHT_NOBITS only
  std::vector<ObjReloc> relocs;
  // SHT_GROUP: the signature symbol and member sections (model indices).
  uint32_t groupSignature = 0;
  uint32_t groupFlags = 0;
  std::vector<uint32_t> groupMembers;
  // SHT_LLVM_ADDRSIG: the address-significant symbols (model indices).
  std::vector<uint32_t> addrsig;
  uint64_t byteSize() const { return bytes.empty() ? size : bytes.size(); }
};

// Symbol section values besides a model section index.
enum : uint32_t { SecUndef = 0xffffffffu, SecAbs = 0xfffffffeu, SecCommon = 0xfffffffdu };

struct ObjSymbol {
  std::string name;
  uint8_t bind = 0, type = 0, visibility = 0;
  uint32_t section = SecUndef; // a model section index, or Sec*
  uint64_t value = 0, size = 0;
  bool defined() const { return section != SecUndef; }
};

struct ElfObject {
  std::string name;
  uint16_t machine = 0;
  uint32_t eflags = 0;
  std::vector<ObjSection> sections;
  std::vector<ObjSymbol> symbols; // [0] is the null symbol
};

enum : uint32_t { SHT_LLVM_ADDRSIG = 0x6fff4c03 };

// The registry's ELF pair for a machine number (null: none).
const TargetInfo *elfTarget(uint16_t Machine);

// Reads a 64-bit little-endian ELF relocatable object (errors name Name).
Expected<ElfObject> readElfObject(std::string Name, std::span<const char> Bytes);
// Writes it back: sections in model order, then .rela.*, .symtab, .strtab
// and .shstrtab; local symbols first, as ELF requires.
std::vector<char> writeElfObject(const ElfObject &O);

} // namespace linklab::repro
