# A call whose addend reaches the edge of int64 (found by the object fuzzer:
# the stub bypass measured the displacement in signed arithmetic, which
# overflowed under UBSan) is refused with the edge named, not linked.
#
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t.o %s
# RUN: not linklab -noexec -no-process-syms -phony-externals %t.o 2>&1 | FileCheck %s
#
# CHECK: error: {{.*}}BranchPCRel32ToPtrJumpStubBypassable

        .text
        .globl  main
        .type   main,@function
main:
        .byte   0xe8
        .reloc  ., R_X86_64_PLT32, foo+0x7ffffffffffffffc
        .long   0
        xorl    %eax, %eax
        retq
        .size main, .-main
