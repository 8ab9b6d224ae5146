# A malformed EHABI index (link/arm_exidx.h) is an error naming the object,
# the section and the entry: a section that is not whole 8-byte entries, an
# entry whose first word names no function.
#
# REQUIRES-LINKLAB-ONLY: the messages are linklab's.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj --defsym ODD=1 -o %t/odd.o %s
# RUN: not linklab -noexec -no-process-syms %t/odd.o 2>&1 | FileCheck --check-prefix=ODD %s
# ODD: linklab error: {{.*}}odd.o: .ARM.exidx+0x0: an index section holds whole 8-byte entries
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj -o %t/nofn.o %s
# RUN: not linklab -noexec -no-process-syms %t/nofn.o 2>&1 | FileCheck --check-prefix=NOFN %s
# NOFN: linklab error: {{.*}}nofn.o: .ARM.exidx+0x8: index entry without an R_ARM_PREL31 to its function

        .syntax unified
        .text
        .globl  main
        .type   main,%function
main:
        bx      lr
        .section .ARM.exidx,"ao",%progbits,.text
        .reloc  ., R_ARM_PREL31, main
        .word   0
        .word   1
.ifdef ODD
        .word   2
.else
        .word   0
        .reloc  ., R_ARM_PREL31, main
        .word   0
.endif
