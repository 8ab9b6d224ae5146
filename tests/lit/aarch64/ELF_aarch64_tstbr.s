# TestAndBranch14PCRel: R_AARCH64_TSTBR14 for TBZ/TBNZ; the bit number is kept.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64-unknown-linux-gnu -filetype=obj -o %t/tstbr.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:   -slab-page-size 4096 -check %s %t/tstbr.o

        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

# jitlink-check: decode_operand(test_tbz_back, 2)[13:0] = (main - test_tbz_back)[15:2]
# jitlink-check: decode_operand(test_tbz_back, 1) = 3
        .globl  test_tbz_back
        .p2align 2
test_tbz_back:
        tbz     x0, #3, main
        .size   test_tbz_back, .-test_tbz_back

# jitlink-check: decode_operand(test_tbnz_fwd, 2) = (target - test_tbnz_fwd)[15:2]
# jitlink-check: decode_operand(test_tbnz_fwd, 2) = 0x1fff
# jitlink-check: decode_operand(test_tbnz_fwd, 1) = 63
        .globl  test_tbnz_fwd
        .p2align 2
test_tbnz_fwd:
        tbnz    x5, #63, target
        .size   test_tbnz_fwd, .-test_tbnz_fwd
        .skip   (1 << 15) - 8

        .globl  target
        .p2align 2
target:
        ret
        .size   target, .-target
