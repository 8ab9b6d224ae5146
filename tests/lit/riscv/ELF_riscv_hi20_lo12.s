# Absolute %hi/%lo pairs: R_RISCV_HI20 (lui), R_RISCV_LO12_I (addi, loads) and
# R_RISCV_LO12_S (stores). The slab sits below 2GiB: lui sign-extends on RV64.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 -mattr=+relax -filetype=obj -o %t/elf_riscv64_hi20_lo12.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x1ff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv64_hi20_lo12.o
# RUN: llvm-mc -triple=riscv32 -mattr=+relax -filetype=obj -o %t/elf_riscv32_hi20_lo12.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x1ff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv32_hi20_lo12.o

        .text
        .globl  main
        .p2align 2
main:
# jitlink-check: (*{4}test_hi20)[31:12] = (named_data + 0x800)[31:12]
        .globl  test_hi20
test_hi20:
        lui     a0, %hi(named_data)
# jitlink-check: decode_operand(test_lo12_i, 2)[11:0] = (named_data)[11:0]
        .globl  test_lo12_i
test_lo12_i:
        addi    a0, a0, %lo(named_data)
        .size   test_lo12_i, 4
# jitlink-check: decode_operand(test_lo12_s, 2)[11:0] = (named_data + 4)[11:0]
        .globl  test_lo12_s
test_lo12_s:
        sw      a1, %lo(named_data + 4)(a0)
        .size   test_lo12_s, 4
        ret

        .data
        .p2align 12
        .space  0x9f0
        .globl  named_data
named_data:
        .quad   0
