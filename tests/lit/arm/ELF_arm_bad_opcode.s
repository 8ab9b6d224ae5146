# An instruction relocation must sit on the instruction it is for: its
# addend is decoded from that instruction's fields. Anything else is an error
# naming the relocation, the place, the expected instruction and the bytes.
# R_ARM_V4BX (a BX marker for Armv4 linkers) makes no edge.
#
# REQUIRES-LINKLAB-ONLY: the messages are linklab's (and llvm-jitlink-22 refuses R_ARM_V4BX).
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj -o %t/v4bx.o %s
# RUN: linklab -noexec -no-process-syms -show-graphs='.*' %t/v4bx.o | FileCheck --check-prefix=V4BX %s
# V4BX: block
# V4BX-NOT: kind =
# V4BX: Absolute symbols:
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj --defsym ARM=1 -o %t/arm.o %s
# RUN: not linklab -noexec -no-process-syms %t/arm.o 2>&1 | FileCheck --check-prefix=ARM %s
# ARM: arm.o: .text+0x4: R_ARM_CALL (type 28): expected BL/BLX instruction for Arm_Call, found e3a00000
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj --defsym THUMB=1 -o %t/thumb.o %s
# RUN: not linklab -noexec -no-process-syms %t/thumb.o 2>&1 | FileCheck --check-prefix=THUMB %s
# THUMB: thumb.o: .text+0x4: R_ARM_THM_MOVT_ABS (type 48): expected Thumb MOVT instruction for Thumb_MovtAbs, found [ f240, 0000 ]

        .text
        .syntax unified
        .globl  main
        .type   main,%function
main:
        .reloc  ., R_ARM_V4BX, main
        bx      lr
.ifdef ARM
        .reloc  ., R_ARM_CALL, main
        mov     r0, #0
.endif
.ifdef THUMB
        .reloc  ., R_ARM_THM_MOVT_ABS, main
        .short  0xf240, 0x0000
.endif
