# BranchPCRel32ToPtrJumpStubBypassable: calls to external functions go
# through a `jmp *GOT(%rip)` stub; when the target is within +-2GiB the
# call is rewritten to reach it directly and the stub is left unused.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/stubs.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -abs near_func=0x20000 \
# RUN:   -abs far_func=0x7fff00000000 -check %s %t/stubs.o

        .text
        .globl  main
        .type   main,@function
main:
        retq
        .size   main, .-main

# Out of range: the call reaches the stub; the stub jumps through the GOT
# entry (JMP64m, displacement operand 3), which holds the target.
# jitlink-check: decode_operand(call_far, 0) = stub_addr(stubs.o, far_func) - next_pc(call_far)
# jitlink-check: *{8}got_addr(stubs.o, far_func) = far_func
# jitlink-check: *{2}stub_addr(stubs.o, far_func) = 0x25ff
# jitlink-check: *{4}(stub_addr(stubs.o, far_func) + 2) = \
# jitlink-check:     (got_addr(stubs.o, far_func) - (stub_addr(stubs.o, far_func) + 6))[31:0]
        .globl  call_far
call_far:
        callq   far_func
        .size   call_far, .-call_far

# In range: bypassed.
# jitlink-check: decode_operand(call_near, 0) = near_func - next_pc(call_near)
        .globl  call_near
call_near:
        callq   near_func
        .size   call_near, .-call_near

# A tail call through the same stub.
# jitlink-check: decode_operand(jmp_far, 0) = stub_addr(stubs.o, far_func) - next_pc(jmp_far)
        .globl  jmp_far
jmp_far:
        jmp     far_func
        .size   jmp_far, .-jmp_far
