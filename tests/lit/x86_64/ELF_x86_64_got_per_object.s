# GOT entries and stubs are looked up per object (got_addr/stub_addr take
# the file's basename): two objects calling and loading the same far
# external each reach a stub and a GOT entry that hold the target.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/first.o %s
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/second.o \
# RUN:   %S/Inputs/ELF_x86_64_second_user.s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -abs ext=0x7fff00000000 -check %s %t/first.o %t/second.o

        .text
        .globl  main
        .type   main,@function
main:
        callq   second_user
        retq
        .size   main, .-main

# jitlink-check: decode_operand(first_call, 0) = stub_addr(first.o, ext) - next_pc(first_call)
# jitlink-check: decode_operand(first_load, 4) = got_addr(first.o, ext) - next_pc(first_load)
# jitlink-check: *{8}got_addr(first.o, ext) = ext
        .globl  first_call
first_call:
        callq   ext
        .size   first_call, .-first_call
        .globl  first_load
first_load:
        movq    ext@GOTPCREL(%rip), %rax
        .size   first_load, .-first_load

# jitlink-check: decode_operand(second_call, 0) = stub_addr(second.o, ext) - next_pc(second_call)
# jitlink-check: decode_operand(second_load, 4) = got_addr(second.o, ext) - next_pc(second_load)
# jitlink-check: *{8}got_addr(second.o, ext) = ext
