# Symbol resolution across objects: a strong definition overrides a weak one
# (references in the weak definer's object bind to the strong one), and a
# common symbol becomes zero-filled storage of its size and alignment.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/weak.o %s
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/strong.o \
# RUN:   %S/Inputs/ELF_x86_64_strong_def.s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t/weak.o %t/strong.o

        .text
        .globl  main
        .type   main,@function
main:
        callq   use_strong
        retq
        .size   main, .-main

        .weak   overridden
        .type   overridden,@function
overridden:
        retq
        .size   overridden, .-overridden

# The call in this object goes to strong.o's definition.
# jitlink-check: decode_operand(call_overridden, 0) = overridden - next_pc(call_overridden)
# jitlink-check: *{1}overridden = 0x90
        .globl  call_overridden
call_overridden:
        callq   overridden
        .size   call_overridden, .-call_overridden

# A weak definition nobody overrides stays.
# jitlink-check: *{1}kept_weak = 0xc3
        .weak   kept_weak
kept_weak:
        retq
        .size   kept_weak, .-kept_weak

# jitlink-check: decode_operand(load_common, 4) = common_buf - next_pc(load_common)
# jitlink-check: common_buf[5:0] = 0
# jitlink-check: *{8}common_buf = 0
# (No load at an offset into common_buf: llvm-jitlink-22 maps zero-fill
# symbols to host address 0 inside loads and crashes reading 0 + offset.)
        .globl  load_common
load_common:
        movq    common_buf(%rip), %rax
        .size   load_common, .-load_common
        .comm   common_buf, 64, 64
