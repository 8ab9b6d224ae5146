# Objects for other ELF operating systems link as Linux ones do: nothing in a
# JIT link of relocatable code depends on the OS. The graph's triple names the
# OS of EI_OSABI as LLVM spells it, and -triple may name any OS.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-freebsd -filetype=obj -o %t/freebsd.o %s
# RUN: llvm-readelf -h %t/freebsd.o | FileCheck %s --check-prefix=OSABI
# OSABI: OS/ABI: UNIX - FreeBSD
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -show-graphs=.* -check %s %t/freebsd.o | FileCheck %s --check-prefix=FREEBSD
# FREEBSD: LinkGraph "{{.*}}freebsd.o" (triple = x86_64--freebsd)
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -triple=x86_64-unknown-freebsd -check %s %t/freebsd.o
#
# RUN: llvm-mc -triple=x86_64-pc-solaris -filetype=obj -o %t/solaris.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -show-graphs=.* -check %s %t/solaris.o | FileCheck %s --check-prefix=SOLARIS
# SOLARIS: LinkGraph "{{.*}}solaris.o" (triple = x86_64--solaris)
#
# NetBSD objects say ELFOSABI_NONE, as Linux ones do.
# RUN: llvm-mc -triple=x86_64-unknown-netbsd -filetype=obj -o %t/netbsd.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -triple=x86_64-unknown-netbsd -show-graphs=.* -check %s %t/netbsd.o | FileCheck %s --check-prefix=NETBSD
# NETBSD: LinkGraph "{{.*}}netbsd.o" (triple = x86_64--)

        .text
        .globl  main
        .p2align 4
main:
# jitlink-check: *{4}(load + 2) = (value - (load + 6))[31:0]
        .globl  load
load:
        movl    value(%rip), %eax
        retq

        .data
        .globl  value
        .p2align 2
value:
        .long   42
# jitlink-check: *{8}ptr = value
        .globl  ptr
        .p2align 3
ptr:
        .quad   value
