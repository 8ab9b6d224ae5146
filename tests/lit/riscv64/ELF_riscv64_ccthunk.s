# Bridge thunks in a -noexec link: a standard-convention call to a function
# whose .linklab.callconv entry gives it custom registers is retargeted to
# <callee>.ccthunk in $__CCTHUNKS, and the thunk calls the callee.
# REQUIRES-LINKLAB-ONLY: bridge thunks and .linklab.callconv are linklab's own; llvm-jitlink links the call directly
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64-unknown-linux-gnu -mattr=+d -filetype=obj -o %t/ccthunk.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t/ccthunk.o
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -show-graphs='.*' %t/ccthunk.o | FileCheck %s
#
# CHECK: section $__CCTHUNKS:
# CHECK: add3.ccthunk
# CHECK: kind = R_RISCV_CALL_PLT, target = add3{{$}}
# CHECK: section .text:
# CHECK: kind = R_RISCV_CALL_PLT, target = add3.ccthunk{{$}}

        .text
        .globl  main
        .type   main,@function
# The call now reaches the thunk, not add3.
# jitlink-check: (*{4}call_add3)[31:12] = ((add3.ccthunk - call_add3) + 0x800)[31:12]
# jitlink-check: decode_operand(call_add3 + 4, 2)[11:0] = (add3.ccthunk - call_add3)[11:0]
main:
        li      a0, 1
        li      a1, 2
        li      a2, 3
        .globl  call_add3
call_add3:
        call    add3
        ret
        .size   main, .-main

# The thunk (addi sp; sd ra; sd a0, a1, a2; ld t0, t2, t4) calls with
# auipc ra + jalr ra at +0x20.
# jitlink-check: (*{4}(add3.ccthunk + 0x20))[11:0] = 0x97
# jitlink-check: (*{4}(add3.ccthunk + 0x20))[31:12] = ((add3 - (add3.ccthunk + 0x20)) + 0x800)[31:12]
# jitlink-check: decode_operand(add3.ccthunk + 0x24, 2)[11:0] = (add3 - (add3.ccthunk + 0x20))[11:0]

# In a section of its own: a block defining a custom-convention function is
# left alone (its calls follow the plans already).
        .section .text.add3,"ax",@progbits
        .globl  add3
        .type   add3,@function
add3:
        slli    t5, t2, 1
        add     t5, t5, t0
        slli    t3, t4, 1
        add     t3, t3, t4
        add     t5, t5, t3
        ret
        .size   add3, .-add3

        .section .linklab.callconv,"",@progbits
        .asciz  "add3=i64(i64,i64,i64);gpr:t0,t2,t4;ret:t5"
