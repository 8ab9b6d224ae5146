# EHABI unwind index of a whole link (link/arm_exidx.h): every object's
# .ARM.exidx entries copied into one table between __exidx_start and
# __exidx_end, as a static linker lays out its .ARM.exidx output section
# for libgcc's unwinder; each entry's PREL31 words re-aimed from the table
# (function, and .ARM.extab entry or the inline word copied), entries in
# function address order. The unwinder's weak __gnu_Unwind_Find_exidx stays
# 0, as in a static link, so the unwinder reads the table.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 defines no __exidx_start/__exidx_end.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj -o %t/exidx_table.o %s
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj --defsym SECOND=1 \
# RUN:     -o %t/exidx_second.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x76ff0000 -slab-page-size 4096 \
# RUN:     -abs __gxx_personality_v0=0x76bb0000 -abs __aeabi_unwind_cpp_pr0=0x76bb1000 \
# RUN:     -check %s %t/exidx_table.o %t/exidx_second.o
# With glibc, whose libc.a defines __gnu_Unwind_Find_exidx (a member a
# static link leaves out, as only weak references name it):
# RUN: linklab -noexec -slab-allocate 100Kb -slab-address 0x76ff0000 -slab-page-size 4096 \
# RUN:     -abs __gxx_personality_v0=0x76bb0000 -check-name=glibc-check -check %s \
# RUN:     %t/exidx_table.o %t/exidx_second.o
# glibc-check: *{4}find_exidx = 0
#
# Three entries: main (EXIDX_CANTUNWIND), withextab (a PREL31 to its
# .ARM.extab entry), compact (an inline compact-model description; the
# second object, linked for withextab's call).
# jitlink-check: (*{4}table_end) - (*{4}table_start) = 24
# jitlink-check: *{4}find_exidx = 0
# jitlink-check: (*{4}(*{4}table_start))[30:0] = (main - (*{4}table_start))[30:0]
# jitlink-check: *{4}((*{4}table_start) + 4) = 1
# jitlink-check: (*{4}((*{4}table_start) + 8))[30:0] = (withextab - ((*{4}table_start) + 8))[30:0]
# jitlink-check: (*{4}((*{4}table_start) + 12))[30:0] = (section_addr(exidx_table.o, .ARM.extab) - ((*{4}table_start) + 12))[30:0]
# jitlink-check: (*{4}((*{4}table_start) + 16))[30:0] = (compact - ((*{4}table_start) + 16))[30:0]
# jitlink-check: *{4}((*{4}table_start) + 20) = *{4}(section_addr(exidx_second.o, .ARM.exidx) + 4)
# jitlink-check: (*{4}((*{4}table_start) + 20))[31:31] = 1

        .syntax unified
.ifndef SECOND
        .text
        .globl  main
        .type   main,%function
        .p2align 2
main:
        .fnstart
        .cantunwind
        bx      lr
        .fnend
        .size   main, .-main

        .globl  withextab
        .type   withextab,%function
        .p2align 2
withextab:
        .fnstart
        .save   {r4, lr}
        push    {r4, lr}
        .personality __gxx_personality_v0
        .handlerdata
        .word   0
        .text
        bl      compact
        pop     {r4, pc}
        .fnend
        .size   withextab, .-withextab

        .data
        .p2align 2
        .globl  table_start, table_end, find_exidx
table_start:
        .word   __exidx_start
table_end:
        .word   __exidx_end
find_exidx:
        .word   __gnu_Unwind_Find_exidx
        .weak   __gnu_Unwind_Find_exidx
.else
        .text
        .globl  compact
        .type   compact,%function
        .p2align 2
compact:
        .fnstart
        .save   {r4, lr}
        push    {r4, lr}
        pop     {r4, pc}
        .fnend
        .size   compact, .-compact
.endif
