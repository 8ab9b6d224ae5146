# Checked absolute MOVW: R_AARCH64_MOVW_UABS_G0, _G1 and _G2 (MoveWide16Checked),
# the forms whose value must fit in the bits the sequence builds.
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 rejects MOVW_UABS_G0/G1/G2 without _NC
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64-unknown-linux-gnu -filetype=obj -o %t/movw_checked.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:   -slab-page-size 4096 -abs ext16=0xbeef -abs ext32=0x12345678 -abs ext48=0x123456789abc -check %s %t/movw_checked.o

        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

# jitlink-check: decode_operand(g0, 1) = 0xbeef
        .globl  g0
        .p2align 2
g0:
        movz    x0, #:abs_g0:ext16
        .size   g0, .-g0

# jitlink-check: decode_operand(g1, 1) = 0x1234
        .globl  g1
        .p2align 2
g1:
        movz    x0, #:abs_g1:ext32
        .size   g1, .-g1

# jitlink-check: decode_operand(g2, 1) = 0x1234
# jitlink-check: decode_operand(g2_lo, 2) = 0x5678
        .globl  g2
        .p2align 2
g2:
        movz    x0, #:abs_g2:ext48
        .size   g2, .-g2

        .globl  g2_lo
        .p2align 2
g2_lo:
        movk    x0, #:abs_g1_nc:ext48
        .size   g2_lo, .-g2_lo

# jitlink-check: decode_operand(g1_local, 1) = named_data[31:16]
        .globl  g1_local
        .p2align 2
g1_local:
        movz    x0, #:abs_g1:named_data
        .size   g1_local, .-g1_local

        .data
        # Padding puts named_data mid-page, so every low-bit slice is non-zero.
        .skip   0x5f0
        .globl  named_data
        .p2align 4
        .type   named_data,@object
named_data:
        .quad   0x2222222222222222
        .quad   0x3333333333333333
        .size   named_data, .-named_data
