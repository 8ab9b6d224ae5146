# R_X86_64_GOTPC32 / R_X86_64_GOTPC64: the GOT base relative to the fixup
# (Delta32 / Delta64 against _GLOBAL_OFFSET_TABLE_), as the medium and large
# code models compute it; R_X86_64_GOT64: a GOT entry's offset from the base.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/gotpc.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t/gotpc.o

        .text
        .globl  main
        .type   main,@function
main:
        retq
        .size   main, .-main

# jitlink-check: decode_operand(test_gotpc32, 4) = _GLOBAL_OFFSET_TABLE_ - next_pc(test_gotpc32)
        .globl  test_gotpc32
test_gotpc32:
        leaq    _GLOBAL_OFFSET_TABLE_(%rip), %rbx
        .size   test_gotpc32, .-test_gotpc32

# The large-model prologue: movabs $_GLOBAL_OFFSET_TABLE_-label, %r11; the
# addend makes it relative to the label, not to the field.
# jitlink-check: decode_operand(test_gotpc64, 1) = _GLOBAL_OFFSET_TABLE_ - test_gotpc64
        .globl  test_gotpc64
test_gotpc64:
        movabsq $_GLOBAL_OFFSET_TABLE_-test_gotpc64, %r11
        .size   test_gotpc64, .-test_gotpc64

# jitlink-check: decode_operand(test_got64, 1) = got_addr(gotpc.o, named_data) - _GLOBAL_OFFSET_TABLE_
# jitlink-check: *{8}got_addr(gotpc.o, named_data) = named_data
        .globl  test_got64
test_got64:
        movabsq $named_data@GOT, %rax
        .size   test_got64, .-test_got64

        .data
        .globl  named_data
named_data:
        .quad   0
        .size   named_data, 8
