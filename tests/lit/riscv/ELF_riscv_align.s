# R_RISCV_ALIGN with relaxation: the assembler reserves NOPs and the linker
# deletes the excess so each aligned label really is aligned; later symbols
# move back by the deleted bytes.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 -mattr=+c,+relax -filetype=obj -o %t/elf_riscv64_align.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv64_align.o
# RUN: llvm-mc -triple=riscv32 -mattr=+c,+relax -filetype=obj -o %t/elf_riscv32_align.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv32_align.o

        .text
        .globl  main
        .p2align 4
main:
        c.nop
        .p2align 3
# 2 bytes of code, then 6 bytes of padding reserved: 6 - 6 = 0 kept... the
# aligned label lands on main + 8.
# jitlink-check: aligned8 = main + 8
        .globl  aligned8
aligned8:
        addi    a0, a0, 1
        .p2align 4
# jitlink-check: aligned16 = main + 16
        .globl  aligned16
aligned16:
        c.nop
        c.nop
        c.nop
        .p2align 5
# jitlink-check: aligned32 = main + 32
        .globl  aligned32
aligned32:
        ret
        .globl  after
after:
# jitlink-check: after = main + 34
        ret
