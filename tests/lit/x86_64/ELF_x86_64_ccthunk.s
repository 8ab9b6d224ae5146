# Bridge thunks in a -noexec link: a standard-convention call to a function
# whose .linklab.callconv entry gives it custom registers is retargeted to
# <callee>.ccthunk in $__CCTHUNKS, and the thunk calls the callee.
# REQUIRES-LINKLAB-ONLY: bridge thunks and .linklab.callconv are linklab's own; llvm-jitlink links the call directly
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/ccthunk.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t/ccthunk.o
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -show-graphs='.*' %t/ccthunk.o | FileCheck %s
#
# CHECK: section $__CCTHUNKS:
# CHECK: add3.ccthunk
# CHECK: kind = BranchPCRel32, target = add3{{$}}
# CHECK: section .text:
# CHECK: kind = BranchPCRel32, target = add3.ccthunk{{$}}

        .text
        .globl  main
        .type   main,@function
# The call now reaches the thunk, not add3.
# jitlink-check: decode_operand(call_add3, 0) = add3.ccthunk - next_pc(call_add3)
main:
        movl    $1, %edi
        movl    $2, %esi
        movl    $3, %edx
        .globl  call_add3
call_add3:
        callq   add3
        retq
        .size   main, .-main

# The thunk stages rdi, rsi, rdx (3 x mov [rsp+d32]) and loads rcx, r8, r11
# (3 x mov r,[rsp+d32]) after its 7-byte `sub rsp`: its call is at +0x37.
# jitlink-check: *{1}(add3.ccthunk + 0x37) = 0xe8
# jitlink-check: decode_operand(add3.ccthunk + 0x37, 0) = add3 - (add3.ccthunk + 0x3c)

# In a section of its own: a block defining a custom-convention function is
# left alone (its calls follow the plans already).
        .section .text.add3,"ax",@progbits
        .globl  add3
        .type   add3,@function
add3:
        leaq    (%rcx,%r8,2), %rax
        leaq    (%r11,%r11,2), %r11
        addq    %r11, %rax
        retq
        .size   add3, .-add3

        .section .linklab.callconv,"",@progbits
        .asciz  "add3=i64(i64,i64,i64);gpr:rcx,r8,r11;ret:rax"
