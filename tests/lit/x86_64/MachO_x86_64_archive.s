# MachO objects from static archives. llvm-ar writes archives of MachO
# members in the BSD layout (a "#1/12" long name "__.SYMDEF", little-endian
# {string, member} pairs), which -l must read as it reads GNU's: here two
# archives whose members have the same base name (each defines one function
# main calls) both link, and the calls reach each member's definition.
#
# RUN: rm -rf %t && mkdir -p %t/one %t/two
# RUN: split-file %s %t
# RUN: llvm-mc -triple=x86_64-apple-macos -filetype=obj -o %t/one/part.o %t/one.s
# RUN: llvm-mc -triple=x86_64-apple-macos -filetype=obj -o %t/two/part.o %t/two.s
# RUN: llvm-ar crs %t/libone.a %t/one/part.o
# RUN: llvm-ar crs %t/libtwo.a %t/two/part.o
# RUN: llvm-mc -triple=x86_64-apple-macos -filetype=obj -o %t/main.o %t/main.s
# RUN: head -c 20 %t/libone.a | FileCheck %s --check-prefix=BSD
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7f0000 \
# RUN:   -slab-page-size 4096 -check %t/main.s %t/main.o -L%t -lone -ltwo
#
# BSD: !<arch>
# BSD-NEXT: #1/12

#--- main.s
        .section __TEXT,__text,regular,pure_instructions
        .globl  _main
        .p2align 4
_main:
        .globl  call_one
call_one:
        callq   _one
        .globl  call_two
call_two:
        callq   _two
        xorl    %eax, %eax
        retq

# jitlink-check: decode_operand(call_one, 0) = _one - next_pc(call_one)
# jitlink-check: decode_operand(call_two, 0) = _two - next_pc(call_two)
# jitlink-check: *{1}_one = 0xb8
# jitlink-check: *{4}(_two + 1) = 2

        .subsections_via_symbols

#--- one.s
        .section __TEXT,__text,regular,pure_instructions
        .globl  _one
        .p2align 4
_one:
        movl    $1, %eax
        retq
        .subsections_via_symbols

#--- two.s
        .section __TEXT,__text,regular,pure_instructions
        .globl  _two
        .p2align 4
_two:
        movl    $2, %eax
        retq
        .subsections_via_symbols
