# __start_SEC/__stop_SEC for a section named like a C identifier: every
# object's `myset` contents lie together in one block that they bracket,
# and the symbols in it (global, local, or a section-relative reference) are
# those very bytes: code that names an entry directly sees the address the
# bracket walk sees. An entry's own relocations (here, a pointer to a static
# function of the object it came from) are applied where it now lies.
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 defines __start_/__stop_ per graph only
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/sets.o %s
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/more.o \
# RUN:   %S/Inputs/ELF_x86_64_start_stop_more.s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s -check %S/Inputs/ELF_x86_64_start_stop_more.s %t/sets.o %t/more.o
# A bracket of a section no object has is undefined, as with a static linker.
# RUN: echo '.globl f; f: leaq __start_nosuchsection(%%rip), %%rax' | \
# RUN:   llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/missing.o
# RUN: not linklab -noexec -no-process-syms -entry=f %t/missing.o 2>&1 | FileCheck %s --check-prefix=MISSING
# MISSING: Symbols not found: [ __start_nosuchsection ]

        .text
        .globl  main
        .type   main,@function
main:
        callq   more_user
# jitlink-check: *{4}(load_first + 3) = first_entry - next_pc(load_first)
        .globl  load_first
load_first:
        leaq    first_entry(%rip), %rax
        leaq    __start_myset(%rip), %rdi
        leaq    __stop_myset(%rip), %rsi
        retq
        .size   main, .-main

# Two 8-byte entries from this object, then (8-aligned) one from more.o.
# jitlink-check: __stop_myset - __start_myset = 24
# jitlink-check: first_entry = __start_myset
# jitlink-check: *{8}__start_myset = 0x1111
# jitlink-check: *{8}(__start_myset + 8) = 0x2222
        .section myset,"aw",@progbits
        .p2align 3
        .globl  first_entry
first_entry:
        .quad   0x1111
second_entry:
        .quad   0x2222
