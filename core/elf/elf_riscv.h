// The ELF RISC-V relocation mapping, shared by the RV32 and RV64 pairs
// (the relocation numbers and edge kinds are the same; only pointer-sized
// entries differ, which the arch code takes from the graph).
#pragma once

#include "elf/elf_graph_builder.h"

namespace linklab::elf_riscv {

Error addRelocations(ElfGraphBuilder &GB, Block &Target, const ElfRelocs &Relocs);
const char *relocName(uint32_t Type);
Expected<std::unique_ptr<LinkGraph>> createGraph(const TargetInfo &T, std::string Name, GraphBuffer Buffer);

} // namespace linklab::elf_riscv
