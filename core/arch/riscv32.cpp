// RISC-V 32 (RV32I/RV32IC, ILP32): the RISC-V backend of riscv64.h with
// 4-byte pointers. The relocations, edge kinds, instruction formats and
// relaxation are the same in both psABIs; what differs follows from the
// graph's pointer size: GOT entries are 4 bytes (R_RISCV_32 /
// R_RISCV_TLS_TPREL32), stubs load them with `lw`, and relaxation may use
// `c.jal`, which only RV32C has.
#include "arch/riscv64.h"

namespace linklab {

extern const ArchRow RISCV32Arch = {Arch::RISCV32,
                                    "riscv32",
                                    "",
                                    4,
                                    false,
                                    riscv64::edgeKindName,
                                    riscv64::edgeKindWidth,
                                    riscv64::applyFixup,
                                    riscv64::EhFrameEdgeKinds,
                                    TLSVariant::BlockAtTP,
                                    nullptr};

} // namespace linklab
