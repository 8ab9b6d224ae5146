// RISC-V 32 (RV32I/RV32IC, ILP32): the RISC-V backend of riscv64.h with
// 4-byte pointers. The relocations, edge kinds, instruction formats and
// relaxation are the same in both psABIs; what differs follows from the
// graph's pointer size: GOT entries are 4 bytes (R_RISCV_32 /
// R_RISCV_TLS_TPREL32), stubs load them with `lw`, and relaxation may use
// `c.jal`, which only RV32C has.
#include "arch/riscv64.h"

namespace linklab {

extern const ArchRow RISCV32Arch = {.arch = Arch::RISCV32,
                                    .name = "riscv32",
                                    .pointerSize = 4,
                                    .edgeKindName = riscv64::edgeKindName,
                                    .edgeKindWidth = riscv64::edgeKindWidth,
                                    .applyFixup = riscv64::applyFixup,
                                    .ehFrame = riscv64::EhFrameEdgeKinds,
                                    .tlsVariant = TLSVariant::BlockAtTP,
                                    .createPointerJumpStub = nullptr};

} // namespace linklab
