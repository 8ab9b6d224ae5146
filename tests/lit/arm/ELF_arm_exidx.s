# EHABI unwind index: each .ARM.exidx entry's first word is an R_ARM_PREL31
# to its function (bit 31 clear), the second EXIDX_CANTUNWIND (1) or a
# PREL31 to its .ARM.extab entry. The index sections stay alive (as JITLink
# keeps them: an anonymous live symbol), and the code they point at with
# them (a local function nothing calls is a dead symbol in a live block).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj -o %t/elf_arm_exidx.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x76ff0000 \
# RUN:     -slab-page-size 4096 -abs __gxx_personality_v0=0x76bb0000 -abs __aeabi_unwind_cpp_pr0=0x76bb1000 \
# RUN:     -show-graphs=".*" -check %s %t/elf_arm_exidx.o | FileCheck %s
#
# CHECK: section .ARM.exidx:
# CHECK: symbols:
# CHECK-NEXT: size: 0x00000000, linkage: strong, scope: local, live  -   <anonymous symbol>
# A compact-model entry (personality routine 0) names its routine with an
# R_ARM_NONE: an edge of kind None, as in JITLink, so the routine is needed.
# CHECK: kind = Data_PRel31
# CHECK: kind = Data_PRel31
# CHECK: kind = None, target = __aeabi_unwind_cpp_pr0
# CHECK: section .ARM.extab:
# CHECK: section .text:
# CHECK-EMPTY:
# CHECK-NEXT: block 0x{{[0-9a-f]+}} size = 0x00000014

# jitlink-check: (*{4}(section_addr(elf_arm_exidx.o, .ARM.exidx)))[31:31] = 0
# jitlink-check: (*{4}(section_addr(elf_arm_exidx.o, .ARM.exidx)))[30:0] = (main - section_addr(elf_arm_exidx.o, .ARM.exidx))[30:0]
# jitlink-check: *{4}(section_addr(elf_arm_exidx.o, .ARM.exidx) + 4) = 1
# jitlink-check: (*{4}(section_addr(elf_arm_exidx.o, .ARM.exidx) + 8))[30:0] = ((main + 4) - (section_addr(elf_arm_exidx.o, .ARM.exidx) + 8))[30:0]
# jitlink-check: (*{4}(section_addr(elf_arm_exidx.o, .ARM.exidx) + 12))[30:0] = (section_addr(elf_arm_exidx.o, .ARM.extab) - (section_addr(elf_arm_exidx.o, .ARM.exidx) + 12))[30:0]

        .text
        .syntax unified
        .globl  main
        .type   main,%function
        .p2align 2
main:
        .fnstart
        .cantunwind
        bx      lr
        .fnend
        .size   main, .-main

        .type   unreferenced,%function
        .p2align 2
unreferenced:
        .fnstart
        .save   {r4, lr}
        push    {r4, lr}
        .personality __gxx_personality_v0
        .handlerdata
        .word   0
        .text
        pop     {r4, pc}
        .fnend
        .size   unreferenced, .-unreferenced

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
