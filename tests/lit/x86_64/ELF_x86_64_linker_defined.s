# Symbols a static link provides when no object does: __dso_handle (an
# 8-byte object holding 0, as crtbegin's), _end/end (the start of a page of
# the link's memory that nothing uses). An object's own definition wins.
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 does not define __dso_handle or _end in a plain link
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/syms.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t/syms.o
# RUN: echo '.data; .globl __dso_handle; __dso_handle: .quad 7' | \
# RUN:   llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/handle.o
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s -check-name=own-check %t/syms.o %t/handle.o

        .text
        .globl  main
main:
        leaq    __dso_handle(%rip), %rax
        leaq    _end(%rip), %rcx
        leaq    end(%rip), %rdx
        retq

# jitlink-check: __dso_handle[2:0] = 0
# jitlink-check: *{8}__dso_handle = 0
# jitlink-check: _end[11:0] = 0
# jitlink-check: end = _end
# own-check: *{8}__dso_handle = 7
