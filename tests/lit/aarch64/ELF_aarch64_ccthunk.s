# Bridge thunks in a -noexec link: a standard-convention call to a function
# whose .linklab.callconv entry gives it custom registers is retargeted to
# <callee>.ccthunk in $__CCTHUNKS, and the thunk calls the callee.
# REQUIRES-LINKLAB-ONLY: bridge thunks and .linklab.callconv are linklab's own; llvm-jitlink links the call directly
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64-unknown-linux-gnu -filetype=obj -o %t/ccthunk.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t/ccthunk.o
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -show-graphs='.*' %t/ccthunk.o | FileCheck %s
#
# CHECK: section $__CCTHUNKS:
# CHECK: add3.ccthunk
# CHECK: kind = Branch26PCRel, target = add3{{$}}
# CHECK: section .text:
# CHECK: kind = Branch26PCRel, target = add3.ccthunk{{$}}

        .text
        .globl  main
        .type   main,%function
# The call now reaches the thunk, not add3.
# jitlink-check: decode_operand(call_add3, 0)[25:0] = (add3.ccthunk - call_add3)[27:2]
main:
        mov     x0, #1
        mov     x1, #2
        mov     x2, #3
        .globl  call_add3
call_add3:
        bl      add3
        ret
        .size   main, .-main

# The thunk (sub sp; str x30; str x0, x1, x2; ldr x9, x10, x11) calls at +0x20.
# jitlink-check: (*{4}(add3.ccthunk + 0x20))[31:26] = 0x25
# jitlink-check: decode_operand(add3.ccthunk + 0x20, 0)[25:0] = (add3 - (add3.ccthunk + 0x20))[27:2]

# In a section of its own: a block defining a custom-convention function is
# left alone (its calls follow the plans already).
        .section .text.add3,"ax",%progbits
        .globl  add3
        .type   add3,%function
add3:
        add     x12, x9, x10, lsl #1
        add     x11, x11, x11, lsl #1
        add     x12, x12, x11
        ret
        .size   add3, .-add3

        .section .linklab.callconv,"",%progbits
        .asciz  "add3=i64(i64,i64,i64);gpr:x9,x10,x11;ret:x12"
