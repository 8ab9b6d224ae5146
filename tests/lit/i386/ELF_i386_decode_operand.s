# jitlink-check's decode_operand on i386 code (32-bit mode: no REX, ModRM
# mod=00 rm=101 is an absolute disp32), with LLVM MC's operand order, in a
# slab near the top of the 32-bit space, where linklab's C runtime must go
# below the slab (it went above 4 GiB: a Pointer32 overflow in crt1.o).
# A displacement is sign-extended, an operand-sized immediate is not, as LLVM
# decodes them.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=i386-unknown-linux-gnu -filetype=obj -o %t/decode.o %s
# RUN: linklab -noexec -slab-allocate 100Kb -slab-address 0xfff00000 -slab-page-size 4096 \
# RUN:     -abs ext16=0x1234 -check %s %t/decode.o

        .text
        .globl  main
        .p2align 4
        .type   main,@function
main:
        ret
        .size   main, .-main

# jitlink-check: decode_operand(call_site, 0) = callee - next_pc(call_site)
# jitlink-check: next_pc(call_site) = call_site + 5
        .globl  call_site
call_site:
        calll   callee
# jitlink-check: decode_operand(mov_imm, 1) = data
        .globl  mov_imm
        .size   call_site, .-call_site
mov_imm:
        movl    $data, %eax
# jitlink-check: decode_operand(lea_abs, 4) = (data + 8) | 0xffffffff00000000
        .globl  lea_abs
        .size   mov_imm, .-mov_imm
lea_abs:
        leal    data+8, %eax
# jitlink-check: decode_operand(load_abs, 4) = data | 0xffffffff00000000
        .globl  load_abs
        .size   lea_abs, .-lea_abs
load_abs:
        movl    data, %ecx
# jitlink-check: decode_operand(jump_table, 3) = data | 0xffffffff00000000
        .globl  jump_table
        .size   load_abs, .-load_abs
jump_table:
        jmpl    *data(,%eax,4)
# jitlink-check: decode_operand(ret_imm, 0) = ext16
        .globl  ret_imm
        .size   jump_table, .-jump_table
ret_imm:
        retl    $ext16
        .globl  callee
        .size   ret_imm, .-ret_imm
callee:
        ret

        .size   callee, .-callee
        .data
        .p2align 2
        .globl  data
data:
        .long   0, 0, 0
