# Branches between Arm and Thumb code in one graph: R_ARM_CALL (BL, or BLX
# to a Thumb function, offset bit 1 in H), R_ARM_JUMP24 (B), R_ARM_THM_CALL
# (BL, or BLX to an Arm function, counting from the PC aligned down to 4),
# R_ARM_THM_JUMP24 (B.W). Offsets are checked in the instructions' fields;
# the Arm PC reads 8 ahead, the Thumb PC 4.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj -o %t/elf_arm_branch.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x76ff0000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_arm_branch.o

        .text
        .syntax unified
        .arm
        .globl  main
        .type   main,%function
        .p2align 2
main:
# BL to Arm stays BL (cond AL, 1011).
# jitlink-check: (*{4}arm_bl)[31:24] = 0xeb
# jitlink-check: (*{4}arm_bl)[23:0] = ((arm_func - (arm_bl + 8)) >> 2)[23:0]
        .globl  arm_bl
arm_bl:
        bl      arm_func
# BL to Thumb becomes BLX (1111 101H); thumb_func is 4-aligned, so H = 0
# (ELF_arm_branch_linklab.s has the H = 1 case).
# jitlink-check: (*{4}arm_blx)[31:24] = 0xfa
# jitlink-check: (*{4}arm_blx)[23:0] = ((thumb_func - (arm_blx + 8)) >> 2)[23:0]
        .globl  arm_blx
arm_blx:
        bl      thumb_func
# B (JUMP24) to Arm.
# jitlink-check: (*{4}arm_b)[31:24] = 0xea
# jitlink-check: (*{4}arm_b)[23:0] = ((arm_func - (arm_b + 8)) >> 2)[23:0]
        .globl  arm_b
arm_b:
        b       arm_func
        bx      lr
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
# Thumb BL to Thumb stays BL (second halfword 11x1).
# jitlink-check: (*{2}(thumb_bl + 2))[15:14] = 3
# jitlink-check: (*{2}(thumb_bl + 2))[12:12] = 1
# jitlink-check: (*{2}thumb_bl)[9:0] = ((thumb_func2 - (thumb_bl + 4)) >> 12)[9:0]
# jitlink-check: (*{2}(thumb_bl + 2))[10:0] = ((thumb_func2 - (thumb_bl + 4)) >> 1)[10:0]
        .globl  thumb_bl
thumb_bl:
        bl      thumb_func2
        nop
# Thumb BL to Arm becomes BLX (bit 12 clear) from Align(PC, 4): this call
# sits at 2 mod 4, so the offset is 2 more than from the PC.
# jitlink-check: (thumb_blx)[1:0] = 2
# jitlink-check: (*{2}(thumb_blx + 2))[12:12] = 0
# jitlink-check: (*{2}(thumb_blx + 2))[10:0] = ((arm_func - ((thumb_blx + 4) & 0xfffffffc)) >> 1)[10:0]
# jitlink-check: (*{2}(thumb_blx + 2))[0:0] = 0
        .globl  thumb_blx
thumb_blx:
        bl      arm_func
# B.W (THM_JUMP24) to Thumb.
# jitlink-check: (*{2}(thumb_bw + 2))[15:14] = 2
# jitlink-check: (*{2}(thumb_bw + 2))[12:12] = 1
# jitlink-check: (*{2}(thumb_bw + 2))[10:0] = ((thumb_func2 - (thumb_bw + 4)) >> 1)[10:0]
        .globl  thumb_bw
thumb_bw:
        b.w     thumb_func2
        .size   thumb_func, .-thumb_func

        .globl  thumb_func2
        .type   thumb_func2,%function
        .p2align 2
        .thumb_func
        nop
thumb_func2:
        bx      lr
        .size   thumb_func2, .-thumb_func2
