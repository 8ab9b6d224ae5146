# PCRel32GOTLoadREXRelaxable from R_X86_64_REX_GOTPCRELX: REX.W loads
# through the GOT become lea when the target is defined and in range; loads
# of external targets far away keep their GOT entry.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/rexgot.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -abs far_data=0x7fff00001000 -check %s %t/rexgot.o

        .text
        .globl  main
        .type   main,@function
main:
        retq
        .size   main, .-main

# jitlink-check: decode_operand(test_relaxed, 4) = named_data - next_pc(test_relaxed)
# jitlink-check: *{2}test_relaxed = 0x8d48
        .globl  test_relaxed
test_relaxed:
        movq    named_data@GOTPCREL(%rip), %rax
        .size   test_relaxed, .-test_relaxed

# r12 as destination needs REX.R (0x4c).
# jitlink-check: decode_operand(test_relaxed_r12, 4) = named_data - next_pc(test_relaxed_r12)
# jitlink-check: *{2}test_relaxed_r12 = 0x8d4c
        .globl  test_relaxed_r12
test_relaxed_r12:
        movq    named_data@GOTPCREL(%rip), %r12
        .size   test_relaxed_r12, .-test_relaxed_r12

# Out of range: still a load (MOV64rm) from the GOT entry.
# jitlink-check: *{2}test_far = 0x8b48
# jitlink-check: decode_operand(test_far, 4) = got_addr(rexgot.o, far_data) - next_pc(test_far)
# jitlink-check: *{8}got_addr(rexgot.o, far_data) = far_data
        .globl  test_far
test_far:
        movq    far_data@GOTPCREL(%rip), %rax
        .size   test_far, .-test_far

        .data
        .globl  named_data
named_data:
        .quad   0
        .size   named_data, 8
