# Branches to symbols outside the graph go through a stub in the caller's
# instruction set (movw/movt ip, target; bx ip), and so do plain branches
# that must switch state (B to Thumb, B.W to Arm). The dumps of both linkers
# show the same stubs; the checks follow each branch into its stub.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj -o %t/elf_arm_stubs.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x76ff0000 \
# RUN:     -slab-page-size 4096 -abs ext_func=0x76bbe880 -show-graphs='.*' \
# RUN:     -check %s %t/elf_arm_stubs.o | FileCheck %s
#
# Arm stubs (12 bytes) for the Arm call and the B to Thumb, Thumb stubs (10
# bytes) for the Thumb call and the B.W to Arm:
# CHECK: section __llvm_jitlink_aarch32_STUBS_v7:
# CHECK-DAG: kind = Arm_MovwAbsNC, target = ext_func
# CHECK-DAG: kind = Arm_MovtAbs, target = ext_func
# CHECK-DAG: kind = Thumb_MovwAbsNC, target = ext_func
# CHECK-DAG: kind = Thumb_MovtAbs, target = ext_func
# CHECK-DAG: kind = Arm_MovwAbsNC, target = thumb_func
# CHECK-DAG: kind = Thumb_MovwAbsNC, target = arm_func

        .text
        .syntax unified
        .arm
        .globl  main
        .type   main,%function
        .p2align 2
main:
# The BL reaches an Arm stub: movw ip (e300c000 | imm), movt ip, bx ip.
# jitlink-check: (*{4}arm_call)[31:24] = 0xeb
# jitlink-check: (*{4}((arm_call + 8) + ((*{4}arm_call)[23:0] << 2)))[31:20] = 0xe30
# jitlink-check: (*{4}((arm_call + 8) + ((*{4}arm_call)[23:0] << 2)))[19:16] = 0xe
# jitlink-check: (*{4}((arm_call + 8) + ((*{4}arm_call)[23:0] << 2)))[11:0] = 0x880
# jitlink-check: (*{4}((arm_call + 12) + ((*{4}arm_call)[23:0] << 2)))[31:20] = 0xe34
# jitlink-check: (*{4}((arm_call + 12) + ((*{4}arm_call)[23:0] << 2)))[19:16] = 0x7
# jitlink-check: (*{4}((arm_call + 12) + ((*{4}arm_call)[23:0] << 2)))[11:0] = 0x6bb
# jitlink-check: *{4}((arm_call + 16) + ((*{4}arm_call)[23:0] << 2)) = 0xe12fff1c
        .globl  arm_call
arm_call:
        bl      ext_func
# B to a Thumb function cannot switch state: it goes through an Arm stub.
# jitlink-check: (*{4}arm_b_thumb)[31:24] = 0xea
# jitlink-check: *{4}((arm_b_thumb + 16) + ((*{4}arm_b_thumb)[23:0] << 2)) = 0xe12fff1c
        .globl  arm_b_thumb
arm_b_thumb:
        b       thumb_func
        .size   main, .-main

        .globl  arm_func
        .type   arm_func,%function
        .p2align 2
arm_func:
        bx      lr
        .size   arm_func, .-arm_func

        .thumb
        .globl  thumb_func
        .type   thumb_func,%function
        .p2align 2
        .thumb_func
thumb_func:
# A Thumb call to an external stays BL and reaches a Thumb stub: movw ip
# (f240 | i << 10 | imm4: 0xe880 gives f64e) ... bx ip.
# jitlink-check: (*{2}(thumb_call + 2))[12:12] = 1
# jitlink-check: (*{2}thumb_call)[10:10] = 0
# jitlink-check: *{2}(((thumb_call + 4) + ((*{2}thumb_call)[9:0] << 12)) + ((*{2}(thumb_call + 2))[10:0] << 1)) = 0xf64e
# jitlink-check: *{2}((((thumb_call + 4) + ((*{2}thumb_call)[9:0] << 12)) + ((*{2}(thumb_call + 2))[10:0] << 1)) + 8) = 0x4760
        .globl  thumb_call
thumb_call:
        bl      ext_func
# B.W to an Arm function goes through a Thumb stub too.
# jitlink-check: *{2}((((thumb_bw + 4) + ((*{2}thumb_bw)[9:0] << 12)) + ((*{2}(thumb_bw + 2))[10:0] << 1)) + 8) = 0x4760
        .globl  thumb_bw
thumb_bw:
        b.w     arm_func
        bx      lr
        .size   thumb_func, .-thumb_func
