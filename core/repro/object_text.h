// An ElfObject as text a test can carry: assembly that llvm-mc re-assembles
// into the same object (asm_writer.cpp), or yaml2obj YAML (yaml_writer.cpp).
// The assembly is data, not mnemonics: each section's bytes as data (AArch64
// and RISC-V code as .inst/.insn words, so llvm-mc's mapping symbols land
// where the compiler's were), one label per symbol with its binding, type,
// visibility and size, and one .reloc per relocation, which re-assembles byte
// for byte on every arch without a disassembler.
#pragma once

#include "repro/elf_object.h"

namespace linklab::repro {

struct Assembly {
  std::string text;    // the .s (comments use '#', which all three arches accept)
  std::string mcFlags; // llvm-mc options that restore the header: "-triple=... -mattr=... -target-abi=..."
  // Local symbols whose name the object uses more than once, renamed in the
  // text: (symbol index, name). The rebuilt object has these names.
  std::vector<std::pair<uint32_t, std::string>> renamed;
};

// O with A's renamed symbols: what A re-assembles to.
ElfObject withAssemblyNames(ElfObject O, const Assembly &A);

// An error names what assembly cannot say (a duplicate global name, an
// unnamed relocation type...): the caller then writes YAML instead.
Expected<Assembly> writeAssembly(const ElfObject &O);

// The yaml2obj description of the same object (any object the reader takes).
std::string writeYaml(const ElfObject &O);

} // namespace linklab::repro
