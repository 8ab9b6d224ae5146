// ELF RISC-V 32 (ELFCLASS32, EM_RISCV): the RISC-V relocation mapping and
// passes, for graphs of 4-byte pointers.
#include "arch/riscv64.h"
#include "elf/elf_riscv.h"

namespace linklab {

extern const ArchRow RISCV32Arch;

extern const TargetInfo ElfRISCV32Target = {ElfFormat,
                                            RISCV32Arch,
                                            elf::EM_RISCV,
                                            "riscv32-unknown-linux-gnu",
                                            elf_riscv::createGraph,
                                            riscv64::addDefaultPasses,
                                            elf_riscv::relocName};

} // namespace linklab
