# BranchPCRel32: R_X86_64_PLT32 on call, jmp and jcc to functions defined in
# the same object (no stub: the target is known and in range).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/plt32.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t/plt32.o

        .text
        .globl  main
        .type   main,@function
main:
        retq
        .size   main, .-main

        .globl  callee
        .type   callee,@function
callee:
        retq
        .size   callee, .-callee

# CALL64pcrel32: operand 0 is the displacement.
# jitlink-check: decode_operand(test_call, 0) = callee - next_pc(test_call)
        .globl  test_call
test_call:
        callq   callee
        .size   test_call, .-test_call

# JMP_4 (a tail call): forward over 256 bytes of padding, so a 32-bit field.
# jitlink-check: decode_operand(test_jmp, 0) = far_callee - next_pc(test_jmp)
        .globl  test_jmp
test_jmp:
        jmp     far_callee
        .size   test_jmp, .-test_jmp

# JCC_4: (target, condition code); jne is condition 5.
# jitlink-check: decode_operand(test_jcc, 0) = callee - next_pc(test_jcc)
# jitlink-check: decode_operand(test_jcc, 1) = 5
        .globl  test_jcc
test_jcc:
        jne     callee
        .size   test_jcc, .-test_jcc

# next_pc is the instruction's address plus its length (5 for call rel32).
# jitlink-check: next_pc(test_call) = test_call + 5
# jitlink-check: next_pc(test_jcc) = test_jcc + 6

        .fill   256, 1, 0x90
        .globl  far_callee
        .type   far_callee,@function
far_callee:
        retq
        .size   far_callee, .-far_callee
