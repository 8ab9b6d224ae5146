# Delta32: R_X86_64_PC32 in RIP-relative loads, stores, lea and cmp (the
# displacement is relative to the end of the instruction, which the -4
# addend llvm-mc writes accounts for), and in data (`.long sym - .`).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/pc32.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t/pc32.o

        .text
        .globl  main
        .type   main,@function
main:
        retq
        .size   main, .-main

# MOV32rm: dst, base, scale, index, disp, segment.
# jitlink-check: decode_operand(test_load, 4) = named_data - next_pc(test_load)
        .globl  test_load
test_load:
        movl    named_data(%rip), %eax
        .size   test_load, .-test_load

# MOV64mr: the memory operand comes first, so the displacement is operand 3.
# jitlink-check: decode_operand(test_store, 3) = named_data - next_pc(test_store)
        .globl  test_store
test_store:
        movq    %rax, named_data(%rip)
        .size   test_store, .-test_store

# LEA64r with an addend: the fixup keeps it.
# jitlink-check: decode_operand(test_lea_addend, 4) = (named_data + 12) - next_pc(test_lea_addend)
        .globl  test_lea_addend
test_lea_addend:
        leaq    named_data+12(%rip), %rcx
        .size   test_lea_addend, .-test_lea_addend

# An instruction with an immediate after the displacement: the field is not
# at the end, so the addend is -8 and the answer is still relative to the end.
# jitlink-check: decode_operand(test_cmp_imm, 3) = named_data - next_pc(test_cmp_imm)
# jitlink-check: decode_operand(test_cmp_imm, 5) = 0x1234
        .globl  test_cmp_imm
test_cmp_imm:
        cmpl    $0x1234, named_data(%rip)
        .size   test_cmp_imm, .-test_cmp_imm

        .data
        .globl  named_data
        .p2align 3
named_data:
        .quad   0x1122334455667788
        .quad   0
        .size   named_data, 16

# Data: the field's own address is P.
# jitlink-check: *{4}pc32_data = (named_data - pc32_data)[31:0]
# jitlink-check: *{4}(pc32_data + 4) = (test_load - (pc32_data + 4))[31:0]
        .globl  pc32_data
pc32_data:
        .long   named_data - .
        .long   test_load - .
        .size   pc32_data, 8

# Loads of each width read the target's little-endian bytes.
# jitlink-check: *{8}named_data = 0x1122334455667788
# jitlink-check: *{4}named_data = 0x55667788
# jitlink-check: *{2}(named_data + 6) = 0x1122
# jitlink-check: *{1}(named_data + 1) = 0x77
