# Absolute data relocations: R_RISCV_64 and R_RISCV_32.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 -filetype=obj -o %t/elf_riscv64_abs.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x1ff00000 \
# RUN:     -slab-page-size 4096 -abs external_data=0x12345678 -check %s %t/elf_riscv64_abs.o
# RUN: llvm-mc -triple=riscv32 -filetype=obj -o %t/elf_riscv32_abs.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x1ff00000 \
# RUN:     -slab-page-size 4096 -abs external_data=0x12345678 -check %s %t/elf_riscv32_abs.o

        .text
        .globl  main
        .p2align 1
main:
        ret

        .data
        .p2align 3
# jitlink-check: *{8}ptr64 = main
        .globl  ptr64
ptr64:
        .quad   main
# jitlink-check: *{8}ptr64_addend = main + 0x10
        .globl  ptr64_addend
ptr64_addend:
        .quad   main + 0x10
# jitlink-check: *{4}ptr32 = named_data
        .globl  ptr32
ptr32:
        .word   named_data
# jitlink-check: *{4}ptr32_ext = 0x12345678
        .globl  ptr32_ext
ptr32_ext:
        .word   external_data
        .globl  named_data
named_data:
        .quad   0
