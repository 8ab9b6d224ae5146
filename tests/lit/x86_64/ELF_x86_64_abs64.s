# Pointer64: R_X86_64_64 in data (with and without addends) and in movabs.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/abs64.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -abs far_abs=0x123456789abcdef0 -check %s %t/abs64.o

        .text
        .globl  main
        .type   main,@function
main:
        retq
        .size   main, .-main

# MOV64ri: (dst, imm64).
# jitlink-check: decode_operand(test_movabs, 1) = named_data
        .globl  test_movabs
test_movabs:
        movabsq $named_data, %rax
        .size   test_movabs, .-test_movabs

# jitlink-check: decode_operand(test_movabs_abs, 1) = 0x123456789abcdef0
        .globl  test_movabs_abs
test_movabs_abs:
        movabsq $far_abs, %rdx
        .size   test_movabs_abs, .-test_movabs_abs

        .data
        .globl  named_data
        .p2align 3
named_data:
        .quad   0
        .size   named_data, 8

# jitlink-check: *{8}ptrs = named_data
# jitlink-check: *{8}(ptrs + 8) = named_data + 42
# jitlink-check: *{8}(ptrs + 16) = named_data - 8
# jitlink-check: *{8}(ptrs + 24) = far_abs
# jitlink-check: *{8}(ptrs + 32) = main
        .globl  ptrs
        .p2align 3
ptrs:
        .quad   named_data
        .quad   named_data + 42
        .quad   named_data - 8
        .quad   far_abs
        .quad   main
        .size   ptrs, 40
