# PCRel32GOTLoadRelaxable from R_X86_64_GOTPCRELX: when the target is
# defined in the link and within +-2GiB, the GOT load is relaxed
# (x86-64 psABI B.2): `call *foo@GOTPCREL(%rip)` becomes `addr32 call foo`
# (PC-relative); the psABI also allows `jmp *foo@GOTPCREL(%rip)` -> `jmp foo;
# nop`, which linklab does not do: the jmp keeps loading from the GOT.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 writes the target's absolute address
#   (here 0x12001) into the relaxed call's and jmp's rel32 field instead of
#   target - next_pc, so it would branch to the wrong place; linklab writes
#   the displacement the psABI asks for.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/gotpcrelx_call.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t/gotpcrelx_call.o

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

# addr32 call: one 6-byte CALL64pcrel32.
# jitlink-check: *{1}test_call = 0x67
# jitlink-check: decode_operand(test_call, 0) = callee - next_pc(test_call)
# jitlink-check: next_pc(test_call) = test_call + 6
        .globl  test_call
test_call:
        call    *callee@GOTPCREL(%rip)
        .size   test_call, .-test_call

# JMP64m: (base, scale, index, disp, segment).
# jitlink-check: decode_operand(test_jmp, 3) = got_addr(gotpcrelx_call.o, callee) - next_pc(test_jmp)
# jitlink-check: *{8}got_addr(gotpcrelx_call.o, callee) = callee
        .globl  test_jmp
test_jmp:
        jmp     *callee@GOTPCREL(%rip)
        .size   test_jmp, .-test_jmp

