# MoveWide16: R_AARCH64_MOVW_UABS_G0_NC, G1_NC, G2_NC and G3 build a 64-bit
# absolute address 16 bits at a time (the shift comes from the instruction).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64-unknown-linux-gnu -filetype=obj -o %t/movw.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:   -slab-page-size 4096 -abs external_data=0x123456789abcdef0 -check %s %t/movw.o

        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

# jitlink-check: decode_operand(test_movz_g0_nc, 1) = named_data[15:0]
        .globl  test_movz_g0_nc
        .p2align 2
test_movz_g0_nc:
        movz    x0, #:abs_g0_nc:named_data
        .size   test_movz_g0_nc, .-test_movz_g0_nc

# jitlink-check: decode_operand(test_movk_g1_nc, 2) = named_data[31:16]
        .globl  test_movk_g1_nc
        .p2align 2
test_movk_g1_nc:
        movk    x0, #:abs_g1_nc:named_data
        .size   test_movk_g1_nc, .-test_movk_g1_nc

# jitlink-check: decode_operand(test_movk_g2_nc, 2) = named_data[47:32]
        .globl  test_movk_g2_nc
        .p2align 2
test_movk_g2_nc:
        movk    x0, #:abs_g2_nc:named_data
        .size   test_movk_g2_nc, .-test_movk_g2_nc

# jitlink-check: decode_operand(test_movk_g3, 2) = named_data[63:48]
        .globl  test_movk_g3
        .p2align 2
test_movk_g3:
        movk    x0, #:abs_g3:named_data
        .size   test_movk_g3, .-test_movk_g3

# All four slices of a full 64-bit external address:
# jitlink-check: decode_operand(test_ext_g0, 1) = external_data[15:0]
# jitlink-check: decode_operand(test_ext_g1, 2) = external_data[31:16]
# jitlink-check: decode_operand(test_ext_g2, 2) = external_data[47:32]
# jitlink-check: decode_operand(test_ext_g3, 2) = external_data[63:48]
        .globl  test_ext_g0
        .p2align 2
test_ext_g0:
        movz    x0, #:abs_g0_nc:external_data
        .size   test_ext_g0, .-test_ext_g0

        .globl  test_ext_g1
        .p2align 2
test_ext_g1:
        movk    x0, #:abs_g1_nc:external_data
        .size   test_ext_g1, .-test_ext_g1

        .globl  test_ext_g2
        .p2align 2
test_ext_g2:
        movk    x0, #:abs_g2_nc:external_data
        .size   test_ext_g2, .-test_ext_g2

        .globl  test_ext_g3
        .p2align 2
test_ext_g3:
        movk    x0, #:abs_g3:external_data
        .size   test_ext_g3, .-test_ext_g3

# jitlink-check: decode_operand(test_movz_g1_addend, 1) = (named_data + 0x10000)[31:16]
        .globl  test_movz_g1_addend
        .p2align 2
test_movz_g1_addend:
        movz    x0, #:abs_g1_nc:named_data + 0x10000
        .size   test_movz_g1_addend, .-test_movz_g1_addend

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
