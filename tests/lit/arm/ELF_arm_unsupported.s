# Relocations linklab does not link are named, with the place, in the
# error: here R_ARM_TLS_GOTDESC (a TLS descriptor).
#
# REQUIRES-LINKLAB-ONLY: the message is linklab's.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj -o %t/elf_arm_unsupported.o %s
# RUN: not linklab -noexec -no-process-syms %t/elf_arm_unsupported.o 2>&1 | FileCheck %s
# CHECK: elf_arm_unsupported.o: .text+0x4: R_ARM_TLS_GOTDESC (type 90): unsupported relocation type

        .text
        .syntax unified
        .globl  main
        .type   main,%function
main:
        bx      lr
        .word   x(TLSDESC)
        .section .tbss,"awT",%nobits
        .globl  x
x:
        .word   0
