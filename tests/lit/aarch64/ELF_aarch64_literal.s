# LDRLiteral19: R_AARCH64_LD_PREL_LO19 for 64-bit, 32-bit and FP literal loads
# from a constant in another section.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64-unknown-linux-gnu -filetype=obj -o %t/literal.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:   -slab-page-size 4096 -check %s %t/literal.o

        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

# jitlink-check: decode_operand(test_ldr_x, 1)[18:0] = (literal - test_ldr_x)[20:2]
        .globl  test_ldr_x
        .p2align 2
test_ldr_x:
        ldr     x0, literal
        .size   test_ldr_x, .-test_ldr_x

# jitlink-check: decode_operand(test_ldr_w, 1)[18:0] = ((literal + 8) - test_ldr_w)[20:2]
        .globl  test_ldr_w
        .p2align 2
test_ldr_w:
        ldr     w0, literal + 8
        .size   test_ldr_w, .-test_ldr_w

# jitlink-check: decode_operand(test_ldr_d, 1)[18:0] = (literal - test_ldr_d)[20:2]
        .globl  test_ldr_d
        .p2align 2
test_ldr_d:
        ldr     d0, literal
        .size   test_ldr_d, .-test_ldr_d

        .section .rodata,"a",@progbits
        .globl  literal
        .p2align 3
literal:
        .quad   0x1122334455667788
        .quad   0x99aabbccddeeff00
        .size   literal, 16
