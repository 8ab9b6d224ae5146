# PCRel32GOTLoadRelaxable from R_X86_64_GOTPCRELX: when the target is
# defined in the link and within +-2GiB, the GOT load is relaxed
# (x86-64 psABI B.2): `mov foo@GOTPCREL(%rip), %eax` becomes
# `lea foo(%rip), %eax`. (call/jmp: ELF_x86_64_gotpcrelx_call_relax.s.)
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/gotpcrelx.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t/gotpcrelx.o

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

# jitlink-check: *{1}(test_mov + 0) = 0x8d
# jitlink-check: decode_operand(test_mov, 4) = named_data - next_pc(test_mov)
        .globl  test_mov
test_mov:
        movl    named_data@GOTPCREL(%rip), %eax
        .size   test_mov, .-test_mov

        .data
        .globl  named_data
named_data:
        .long   0
        .size   named_data, 4
