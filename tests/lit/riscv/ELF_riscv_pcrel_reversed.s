# R_RISCV_PCREL_LO12_I appearing before its R_RISCV_PCREL_HI20 partner in
# the relocation table (the auipc lies after the load in the code): the
# partner is found by the auipc's address, not by relocation order.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 -filetype=obj -o %t/elf_riscv64_pcrel_reversed.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv64_pcrel_reversed.o
# RUN: llvm-mc -triple=riscv32 -filetype=obj -o %t/elf_riscv32_pcrel_reversed.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv32_pcrel_reversed.o

        .text
        .globl  main
        .p2align 2
main:
        j       test_pcrel_hi
# jitlink-check: decode_operand(test_pcrel_lo, 2)[11:0] = (named_data - test_pcrel_hi)[11:0]
        .globl  test_pcrel_lo
test_pcrel_lo:
        addi    a0, a0, %pcrel_lo(test_pcrel_hi)
        .size   test_pcrel_lo, 4
        ret
# jitlink-check: (*{4}test_pcrel_hi)[31:12] = ((named_data - test_pcrel_hi) + 0x800)[31:12]
        .globl  test_pcrel_hi
test_pcrel_hi:
        auipc   a0, %pcrel_hi(named_data)
        j       test_pcrel_lo

        .data
        .space  0x123
        .globl  named_data
named_data:
        .byte   0
