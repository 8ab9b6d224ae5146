# A bit slice may name bits above 63, which read as zero: LLVM's tests
# write [64:12] for "every bit from 12 up", and llvm-jitlink-22 accepts it.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-linux-gnu -filetype=obj -o %t/slice.o %s
# RUN: linklab -noexec -no-process-syms -check %s %t/slice.o

# jitlink-check: (0xffffffffffffffff)[64:12] = 0xfffffffffffff
# jitlink-check: (0x123456789abcdef0)[70:60] = 0x1
# jitlink-check: (*{8}value)[64:12] = 0x123456789abcd
        .text
        .globl  main
main:
        retq
        .size   main, .-main
        .data
        .globl  value
value:
        .quad   0x123456789abcdef0
        .size   value, 8
