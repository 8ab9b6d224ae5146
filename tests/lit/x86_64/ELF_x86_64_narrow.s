# Pointer16 / Pointer8 (R_X86_64_16, R_X86_64_8) and Delta16 / Delta8
# (R_X86_64_PC16, R_X86_64_PC8): narrow fields in data.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/narrow.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -abs small16=0xbeef -abs small8=0x7f -check %s %t/narrow.o

        .text
        .globl  main
        .type   main,@function
main:
        retq
        .size   main, .-main

        .data
        .globl  target
target:
        .byte   0
        .size   target, 1

# jitlink-check: *{2}narrow = small16
# jitlink-check: *{1}(narrow + 2) = small8
# jitlink-check: *{2}(narrow + 3) = (target - (narrow + 3))[15:0]
# jitlink-check: *{1}(narrow + 5) = ((target + 2) - (narrow + 5))[7:0]
        .globl  narrow
narrow:
        .short  small16
        .byte   small8
        .short  target - .
        .byte   target + 2 - .
        .size   narrow, 6
