# R_RISCV_32_PCREL: a 32-bit PC-relative word (as in .eh_frame PC begin).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 -filetype=obj -o %t/elf_riscv64_32_pcrel.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv64_32_pcrel.o
# RUN: llvm-mc -triple=riscv32 -filetype=obj -o %t/elf_riscv32_32_pcrel.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv32_32_pcrel.o

        .text
        .globl  main
        .p2align 2
main:
        ret

        .data
# jitlink-check: *{4}pcrel32 = ((main + 8) - pcrel32)[31:0]
        .globl  pcrel32
pcrel32:
        .reloc  ., R_RISCV_32_PCREL, main + 8
        .word   0
