# Branch forms llvm-jitlink-22 refuses or encodes differently:
# - R_ARM_JUMP24 also marks a conditional BL (AAELF32: B, BL<cond>); it
#   keeps its condition and link bit (llvm-jitlink-22: "Invalid opcode").
# - An Arm BL to a Thumb function at 2 mod 4 becomes BLX with H = 1: the
#   target is PC + imm24:H:0 (Arm ARM A8.8.25); llvm-jitlink-22 leaves H
#   clear and lands 2 bytes early.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 refuses BL<cond> for R_ARM_JUMP24 and drops BLX's H bit.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj -o %t/elf_arm_branch_linklab.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x76ff0000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_arm_branch_linklab.o

        .text
        .syntax unified
        .globl  main
        .type   main,%function
        .p2align 2
main:
# jitlink-check: (*{4}arm_blne)[31:24] = 0x1b
# jitlink-check: (*{4}arm_blne)[23:0] = ((arm_func - (arm_blne + 8)) >> 2)[23:0]
        .globl  arm_blne
arm_blne:
        blne    arm_func
# jitlink-check: (*{4}arm_bgt)[31:24] = 0xca
# jitlink-check: (*{4}arm_bgt)[23:0] = ((main - (arm_bgt + 8)) >> 2)[23:0]
        .globl  arm_bgt
arm_bgt:
        bgt     main
# jitlink-check: (thumb_odd)[1:0] = 2
# jitlink-check: (*{4}arm_blx)[31:24] = 0xfb
# jitlink-check: (*{4}arm_blx)[23:0] = ((thumb_odd - (arm_blx + 8)) >> 2)[23:0]
        .globl  arm_blx
arm_blx:
        bl      thumb_odd
        bx      lr
        .size   main, .-main

        .globl  arm_func
        .type   arm_func,%function
arm_func:
        bx      lr
        .size   arm_func, .-arm_func

        .thumb
        .p2align 2
        nop
        .globl  thumb_odd
        .type   thumb_odd,%function
        .thumb_func
thumb_odd:
        bx      lr
        .size   thumb_odd, .-thumb_odd
