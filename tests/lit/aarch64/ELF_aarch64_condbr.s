# CondBranch19PCRel: R_AARCH64_CONDBR19 for B.cond and CBZ/CBNZ, backwards and
# forwards, including the farthest forward target (+1MiB - 4).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64-unknown-linux-gnu -filetype=obj -o %t/condbr.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 2Mb -slab-address 0xfff00000 \
# RUN:   -slab-page-size 4096 -check %s %t/condbr.o

        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

# jitlink-check: decode_operand(test_bcond_back, 1)[18:0] = (main - test_bcond_back)[20:2]
        .globl  test_bcond_back
        .p2align 2
test_bcond_back:
        b.ne    main
        .size   test_bcond_back, .-test_bcond_back

# jitlink-check: decode_operand(test_cbz_back, 1)[18:0] = (main - test_cbz_back)[20:2]
        .globl  test_cbz_back
        .p2align 2
test_cbz_back:
        cbz     x0, main
        .size   test_cbz_back, .-test_cbz_back

# The farthest reachable target: +1MiB - 4 = 0x3ffff instructions ahead.
# jitlink-check: decode_operand(test_cbnz_fwd, 1) = (far_target - test_cbnz_fwd)[20:2]
# jitlink-check: decode_operand(test_cbnz_fwd, 1) = 0x3ffff
        .globl  test_cbnz_fwd
        .p2align 2
test_cbnz_fwd:
        cbnz    w3, far_target
        .size   test_cbnz_fwd, .-test_cbnz_fwd
        .skip   (1 << 20) - 12

# jitlink-check: decode_operand(test_bcond_fwd, 1) = 1
        .globl  test_bcond_fwd
        .p2align 2
test_bcond_fwd:
        b.eq    far_target
        .size   test_bcond_fwd, .-test_bcond_fwd

        .globl  far_target
        .p2align 2
far_target:
        ret
        .size   far_target, .-far_target
