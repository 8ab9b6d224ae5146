# R_AARCH64_GOT_LD_PREL19: an LDR (literal) of the symbol's GOT entry
# (RequestGOTAndTransformToLDRLiteral19).
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 rejects R_AARCH64_GOT_LD_PREL19
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64-unknown-linux-gnu -filetype=obj -o %t/got_literal.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:   -slab-page-size 4096 -abs external_data=0xdeadbeef -check %s %t/got_literal.o

        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

# jitlink-check: *{8}(got_addr(got_literal.o, external_data)) = external_data
# jitlink-check: decode_operand(ldr_got, 1)[18:0] = (got_addr(got_literal.o, external_data) - ldr_got)[20:2]
        .globl  ldr_got
        .p2align 2
ldr_got:
        ldr     x0, :got:external_data
        .size   ldr_got, .-ldr_got

# jitlink-check: *{8}(got_addr(got_literal.o, named_data)) = named_data
# jitlink-check: decode_operand(ldr_got_local, 1)[18:0] = (got_addr(got_literal.o, named_data) - ldr_got_local)[20:2]
        .globl  ldr_got_local
        .p2align 2
ldr_got_local:
        ldr     x1, :got:named_data
        .size   ldr_got_local, .-ldr_got_local

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
