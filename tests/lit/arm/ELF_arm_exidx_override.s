# An index entry naming its function by a global symbol whose definition
# another object's wins (a weak one replaced by a strong one) is left out of
# the link's unwind table (link/arm_exidx.h): the code that runs is the
# winner's, indexed by the winner's own entry.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 defines no __exidx_start/__exidx_end.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj -o %t/weak.o %s
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj --defsym STRONG=1 \
# RUN:     -o %t/strong.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x76ff0000 -slab-page-size 4096 \
# RUN:     -check %s %t/weak.o %t/strong.o
#
# Two entries: main's and the strong foo's.
# jitlink-check: (*{4}table_end) - (*{4}table_start) = 16
# jitlink-check: (*{4}((*{4}table_start) + 8))[30:0] = (foo - ((*{4}table_start) + 8))[30:0]
# jitlink-check: *{4}((*{4}table_start) + 12) = 0x80b0b0b0

        .syntax unified
        .text
.ifndef STRONG
        .globl  main
        .type   main,%function
        .p2align 2
main:
        bl      foo
        bx      lr
        .weak   foo
        .type   foo,%function
foo:
        bx      lr

        .section .ARM.exidx,"ao",%progbits,.text
        .reloc  ., R_ARM_PREL31, main
        .word   0
        .word   1
        .reloc  ., R_ARM_PREL31, foo
        .word   0
        .word   1

        .data
        .p2align 2
        .globl  table_start, table_end
table_start:
        .word   __exidx_start
table_end:
        .word   __exidx_end
.else
        .globl  foo
        .type   foo,%function
        .p2align 2
foo:
        bx      lr
        .section .ARM.exidx,"ao",%progbits,.text
        .reloc  ., R_ARM_PREL31, foo
        .word   0
        .word   0x80b0b0b0
.endif
