# .eh_frame: each FDE's PC-begin field is a Delta32 to its function and its
# CIE pointer a NegDelta32 back to the CIE; the section is split into CIE and
# FDE blocks (llvm-mc writes a 0x14-byte CIE, then one 0x14-byte FDE per
# function with no instructions in its CFI program).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/eh.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t/eh.o

        .text
        .globl  main
        .type   main,@function
main:
        .cfi_startproc
        retq
        .cfi_endproc
        .size   main, .-main

        .globl  second
        .type   second,@function
second:
        .cfi_startproc
        retq
        .cfi_endproc
        .size   second, .-second

# CIE: length 0x14, id 0.
# jitlink-check: *{4}section_addr(eh.o, .eh_frame) = 0x14
# jitlink-check: *{4}(section_addr(eh.o, .eh_frame) + 4) = 0
# First FDE at +0x18: length, CIE pointer (distance back to the CIE from
# this field), PC begin (Delta32 to main), PC range.
# jitlink-check: *{4}(section_addr(eh.o, .eh_frame) + 0x1c) = 0x1c
# jitlink-check: *{4}(section_addr(eh.o, .eh_frame) + 0x20) = \
# jitlink-check:   (main - (section_addr(eh.o, .eh_frame) + 0x20))[31:0]
# jitlink-check: *{4}(section_addr(eh.o, .eh_frame) + 0x24) = 1
# Second FDE at +0x2c.
# jitlink-check: *{4}(section_addr(eh.o, .eh_frame) + 0x30) = 0x30
# jitlink-check: *{4}(section_addr(eh.o, .eh_frame) + 0x34) = \
# jitlink-check:   (second - (section_addr(eh.o, .eh_frame) + 0x34))[31:0]
