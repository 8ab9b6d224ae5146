# Size32 / Size64 (R_X86_64_SIZE32, R_X86_64_SIZE64): a symbol's size plus
# the addend.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/size.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t/size.o

        .text
        .globl  main
        .type   main,@function
main:
        retq
        .size   main, .-main

        .data
        .globl  sized
sized:
        .fill   24, 1, 0
        .size   sized, 24

# jitlink-check: *{4}test_size = 24
# jitlink-check: *{8}(test_size + 4) = 32
        .globl  test_size
test_size:
        .long   sized@SIZE
        .quad   sized@SIZE + 8
        .size   test_size, 12
