# decode_operand extends an operand-sized immediate (imm32 of a 32-bit
# operation, imm16 of a 16-bit one) with zeros, as LLVM's decoder does; a
# REX.W operation's imm32 is sign-extended.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-linux-gnu -filetype=obj -o %t/imm_width.o %s
# RUN: linklab -noexec -no-process-syms -check %s %t/imm_width.o

        .text
        .globl  main
main:
        ret
        .size   main, .-main
# jitlink-check: decode_operand(mov_ri, 1) = 0xfff00000
        .globl  mov_ri
mov_ri:
        movl    $0xfff00000, %eax
        .size   mov_ri, .-mov_ri
# jitlink-check: decode_operand(mov_mi, 5) = 0xfff00000
        .globl  mov_mi
mov_mi:
        movl    $0xfff00000, 8(%rax)
        .size   mov_mi, .-mov_mi
# jitlink-check: decode_operand(add_ri, 2) = 0xfff00000
        .globl  add_ri
add_ri:
        addl    $0xfff00000, %ecx
        .size   add_ri, .-add_ri
# jitlink-check: decode_operand(mov_w, 1) = 0xfff0
        .globl  mov_w
mov_w:
        movw    $0xfff0, %ax
        .size   mov_w, .-mov_w
# jitlink-check: decode_operand(mov_q, 1) = 0xfffffffffff00000
        .globl  mov_q
mov_q:
        movq    $-0x100000, %rax
        .size   mov_q, .-mov_q
