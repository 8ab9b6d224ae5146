# -add-self-relocations decodes every instruction of each function: bytes
# that are no x86-64 instruction (06 is PUSH ES, invalid in 64-bit mode)
# fail the link at their address, in llvm-jitlink's words.
#
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t.o %s
# RUN: not linklab -noexec -add-self-relocations %t.o 2>&1 | FileCheck %s
#
# CHECK: failed to disassemble at address 0x0000000000000001

        .text
        .globl  main
        .type   main,@function
main:
        nop
        .byte   0x06
        retq
        .size   main, .-main
