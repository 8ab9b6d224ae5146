# Pointer32 (R_X86_64_32, zero-extended) and Pointer32Signed (R_X86_64_32S,
# sign-extended): absolute 32-bit fields in data and immediates.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/abs32.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -abs high_abs=0xfffff000 -abs neg_abs=0xffffffff80000000 \
# RUN:   -check %s %t/abs32.o

        .text
        .globl  main
        .type   main,@function
main:
        retq
        .size   main, .-main

# MOV32ri (R_X86_64_32): (dst, imm).
# jitlink-check: decode_operand(test_mov32, 1) = named_data
        .globl  test_mov32
test_mov32:
        movl    $named_data, %eax
        .size   test_mov32, .-test_mov32

# MOV64ri32 (R_X86_64_32S): the immediate is sign-extended to 64 bits.
# jitlink-check: decode_operand(test_mov64ri32, 1) = named_data
# jitlink-check: decode_operand(test_mov64ri32_neg, 1) = neg_abs
        .globl  test_mov64ri32
test_mov64ri32:
        movq    $named_data, %rcx
        .size   test_mov64ri32, .-test_mov64ri32
        .globl  test_mov64ri32_neg
test_mov64ri32_neg:
        movq    $neg_abs, %rcx
        .size   test_mov64ri32_neg, .-test_mov64ri32_neg

# A 32S displacement with no base register (absolute addressing through SIB).
# jitlink-check: decode_operand(test_abs_disp, 4) = named_data + 4
        .globl  test_abs_disp
test_abs_disp:
        movl    named_data+4, %edx
        .size   test_abs_disp, .-test_abs_disp

        .data
        .globl  named_data
        .p2align 3
named_data:
        .quad   0
        .size   named_data, 8

# jitlink-check: *{4}words = named_data
# jitlink-check: *{4}(words + 4) = high_abs
# jitlink-check: *{4}(words + 8) = neg_abs[31:0]
# jitlink-check: *{4}(words + 12) = named_data + 100
        .globl  words
words:
        .long   named_data
        .long   high_abs
        .reloc ., R_X86_64_32S, neg_abs
        .long   0
        .long   named_data + 100
        .size   words, 16
