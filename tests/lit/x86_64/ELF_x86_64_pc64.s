# Delta64 (R_X86_64_PC64) and NegDelta-free 64-bit differences in data,
# forwards and backwards across sections.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/pc64.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t/pc64.o

        .text
        .globl  main
        .type   main,@function
main:
        retq
        .size   main, .-main

        .data
        .globl  named_data
named_data:
        .quad   0
        .size   named_data, 8

# jitlink-check: *{8}test_pc64 = named_data - test_pc64
# jitlink-check: *{8}(test_pc64 + 8) = main - (test_pc64 + 8)
# jitlink-check: *{8}(test_pc64 + 16) = (main + 0x10) - (test_pc64 + 16)
        .globl  test_pc64
        .p2align 3
test_pc64:
        .quad   named_data - .
        .quad   main - .
        .quad   main + 0x10 - .
        .size   test_pc64, 24
