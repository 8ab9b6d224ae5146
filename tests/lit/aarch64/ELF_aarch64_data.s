# Data relocations: R_AARCH64_ABS64 (Pointer64), R_AARCH64_ABS32 (Pointer32),
# R_AARCH64_PREL64 (Delta64) and R_AARCH64_PREL32 (Delta32), with addends.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64-unknown-linux-gnu -filetype=obj -o %t/data.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:   -slab-page-size 4096 -abs external_data=0xfff10000 -abs low_data=0x12345678 -check %s %t/data.o

        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

        .data
        .p2align 3
# jitlink-check: *{8}abs64_local = main
        .globl  abs64_local
abs64_local:
        .xword  main
        .size   abs64_local, 8

# jitlink-check: *{8}abs64_external = external_data + 0x10
        .globl  abs64_external
abs64_external:
        .xword  external_data + 0x10
        .size   abs64_external, 8

# jitlink-check: *{4}abs32 = low_data
        .globl  abs32
abs32:
        .word   low_data
        .size   abs32, 4

# jitlink-check: *{4}prel32 = (external_data - prel32)[31:0]
        .globl  prel32
prel32:
        .word   external_data - .
        .size   prel32, 4

# jitlink-check: *{8}prel64 = (main - prel64) + 4
        .globl  prel64
prel64:
        .xword  main - . + 4
        .size   prel64, 8

# A cross-section PREL32 backwards into .text:
# jitlink-check: *{4}prel32_text = (main - prel32_text)[31:0]
        .globl  prel32_text
prel32_text:
        .word   main - .
        .size   prel32_text, 4
