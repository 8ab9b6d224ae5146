# Delta64FromGOT (R_X86_64_GOTOFF64): the offset of a symbol from the GOT
# base, _GLOBAL_OFFSET_TABLE_, which the link defines at the start of the GOT.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/gotoff.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t/gotoff.o

        .text
        .globl  main
        .type   main,@function
main:
        retq
        .size   main, .-main

# movabs with @GOTOFF (the large code model's way to reach data).
# jitlink-check: decode_operand(test_gotoff_movabs, 1) = named_data - _GLOBAL_OFFSET_TABLE_
        .globl  test_gotoff_movabs
test_gotoff_movabs:
        movabsq $named_data@GOTOFF, %rax
        .size   test_gotoff_movabs, .-test_gotoff_movabs

# A GOT-relative reference needs the GOT even when nothing else does.
# jitlink-check: *{8}test_gotoff = named_data - _GLOBAL_OFFSET_TABLE_
# jitlink-check: *{8}(test_gotoff + 8) = (named_data + 16) - _GLOBAL_OFFSET_TABLE_
        .data
        .globl  test_gotoff
        .p2align 3
test_gotoff:
        .quad   named_data@GOTOFF
        .quad   named_data@GOTOFF + 16
        .size   test_gotoff, 16

        .globl  named_data
named_data:
        .quad   0
        .size   named_data, 8
