# 16-bit data: R_AARCH64_ABS16 (Pointer16) and R_AARCH64_PREL16 (Delta16).
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 rejects R_AARCH64_ABS16 and R_AARCH64_PREL16
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64-unknown-linux-gnu -filetype=obj -o %t/data16.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:   -slab-page-size 4096 -abs small=0xfedc -check %s %t/data16.o

        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

        .data
        .p2align 3
# jitlink-check: *{2}abs16 = 0xfedc
        .globl  abs16
abs16:
        .hword  small
        .size   abs16, 2

# jitlink-check: *{2}abs16_addend = 0xfee0
        .globl  abs16_addend
abs16_addend:
        .hword  small + 4
        .size   abs16_addend, 2

# jitlink-check: *{2}prel16 = (near - prel16)[15:0]
        .globl  prel16
prel16:
        .hword  near - .
        .size   prel16, 2

        .section .rodata,"a",@progbits
        .globl  near
near:
        .quad   0
