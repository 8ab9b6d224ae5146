# MOVW/MOVT pairs, Arm (R_ARM_MOVW_ABS_NC, R_ARM_MOVT_ABS) and Thumb
# (R_ARM_THM_MOVW_ABS_NC, R_ARM_THM_MOVT_ABS, and the PC-relative
# R_ARM_THM_MOVW_PREL_NC, R_ARM_THM_MOVT_PREL). The addend is the signed
# 16-bit immediate already in the instruction.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj -o %t/elf_arm_movw_movt.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x76ff0000 \
# RUN:     -slab-page-size 4096 -abs ext_data=0x12345678 -check %s %t/elf_arm_movw_movt.o

        .text
        .syntax unified
        .arm
        .globl  main
        .type   main,%function
        .p2align 2
main:
# Arm MOVW: imm4 at [19:16], imm12 at [11:0]; the register stays.
# jitlink-check: (*{4}arm_movw)[19:16] = 0x5
# jitlink-check: (*{4}arm_movw)[11:0] = 0x67c
# jitlink-check: (*{4}arm_movw)[15:12] = 3
# jitlink-check: (*{4}arm_movt)[19:16] = 0x1
# jitlink-check: (*{4}arm_movt)[11:0] = 0x234
        .globl  arm_movw
arm_movw:
        movw    r3, :lower16:(ext_data + 4)
        .globl  arm_movt
arm_movt:
        movt    r3, :upper16:(ext_data + 4)
# jitlink-check: (*{4}arm_movw_local)[19:16] = local_data[15:12]
# jitlink-check: (*{4}arm_movw_local)[11:0] = local_data[11:0]
# jitlink-check: (*{4}arm_movt_local)[19:16] = local_data[31:28]
# jitlink-check: (*{4}arm_movt_local)[11:0] = local_data[27:16]
        .globl  arm_movw_local
arm_movw_local:
        movw    r0, :lower16:local_data
        .globl  arm_movt_local
arm_movt_local:
        movt    r0, :upper16:local_data
        bx      lr
        .size   main, .-main

        .thumb
        .globl  thumb_func
        .type   thumb_func,%function
        .p2align 1
        .thumb_func
thumb_func:
# Thumb MOVW (T3): imm4 in the first halfword's [3:0], i in its [10],
# imm3 in the second's [14:12], imm8 in its [7:0]; value 0x5674 here.
# jitlink-check: (*{2}thumb_movw)[3:0] = 0x5
# jitlink-check: (*{2}thumb_movw)[10:10] = 0
# jitlink-check: (*{2}(thumb_movw + 2))[14:12] = 0x6
# jitlink-check: (*{2}(thumb_movw + 2))[7:0] = 0x74
# jitlink-check: (*{2}(thumb_movw + 2))[11:8] = 2
# jitlink-check: (*{2}thumb_movt)[3:0] = 0x1
# jitlink-check: (*{2}(thumb_movt + 2))[14:12] = 0x2
# jitlink-check: (*{2}(thumb_movt + 2))[7:0] = 0x34
        .globl  thumb_movw
thumb_movw:
        movw    r2, :lower16:(ext_data - 4)
        .globl  thumb_movt
thumb_movt:
        movt    r2, :upper16:(ext_data - 4)
# PC-relative: S + A - P, each instruction its own P.
# jitlink-check: (*{2}thumb_movw_prel)[3:0] = (local_data - thumb_movw_prel)[15:12]
# jitlink-check: (*{2}thumb_movw_prel)[10:10] = (local_data - thumb_movw_prel)[11:11]
# jitlink-check: (*{2}(thumb_movw_prel + 2))[14:12] = (local_data - thumb_movw_prel)[10:8]
# jitlink-check: (*{2}(thumb_movw_prel + 2))[7:0] = (local_data - thumb_movw_prel)[7:0]
# jitlink-check: (*{2}thumb_movt_prel)[3:0] = (local_data - thumb_movt_prel)[31:28]
# jitlink-check: (*{2}thumb_movt_prel)[10:10] = (local_data - thumb_movt_prel)[27:27]
# jitlink-check: (*{2}(thumb_movt_prel + 2))[14:12] = (local_data - thumb_movt_prel)[26:24]
# jitlink-check: (*{2}(thumb_movt_prel + 2))[7:0] = (local_data - thumb_movt_prel)[23:16]
        .globl  thumb_movw_prel
thumb_movw_prel:
        movw    r1, :lower16:(local_data - thumb_movw_prel)
        .globl  thumb_movt_prel
thumb_movt_prel:
        movt    r1, :upper16:(local_data - thumb_movt_prel)
        bx      lr
        .size   thumb_func, .-thumb_func

        .data
        .globl  local_data
local_data:
        .word   0
