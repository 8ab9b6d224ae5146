# A slab smaller than a page holds a page, as llvm-jitlink's (mapped in
# whole pages) does: a 1 KB slab takes this one-page graph. Two pages of
# segments still exhaust it.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=i386-unknown-linux-gnu -filetype=obj -o %t/slab_below_page.o %s
# RUN: linklab -noexec -slab-allocate 1Kb -slab-address 0x10000 -slab-page-size 4096 \
# RUN:     -abs external_data=0x32 -check %s %t/slab_below_page.o
# RUN: llvm-mc -triple=i386-unknown-linux-gnu -filetype=obj --defsym TWO_PAGES=1 -o %t/two_pages.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 1Kb -slab-address 0x10000 -slab-page-size 4096 \
# RUN:     -abs external_data=0x32 %t/two_pages.o 2>&1 | FileCheck %s --check-prefix=EXHAUSTED
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 takes any size: it reserves past the slab, and gives each graph the slab's start

        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

# jitlink-check: main = 0x10000
# jitlink-check: *{4}(bar + 1) = external_data
        .globl  bar
        .p2align 2
bar:
        movl    $external_data, %eax
        .size   bar, .-bar

.ifdef TWO_PAGES
        .data
        .globl  two_pages_data
two_pages_data:
        .long   1
.endif
# EXHAUSTED: slab exhausted: need 0x2000 bytes, 0x1000 of 0x1000 left
