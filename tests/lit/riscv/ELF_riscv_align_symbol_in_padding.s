# A symbol inside the padding an R_RISCV_ALIGN deletes (only a malformed
# object has one: here placed with .reloc) lands where the padding was, not
# before it: its offset wrapped to block + 0xfffffffffffffffc.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 moves the symbol before its block (block + 0x1fffffffffffffc).
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 -mattr=+c,+relax -filetype=obj -o %t/inpad.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -show-graphs='.*' %t/inpad.o | FileCheck %s
# CHECK: 0xfff00000 (block + 0x00000000): size: 0x00000002, linkage: strong, scope: default, live  -   inpad
# CHECK: 0xfff00002 (block + 0x00000002): size: 0x00000000, linkage: strong, scope: default, live  -   after

        .text
        .globl  main
        .p2align 3
main:
        .reloc  ., R_RISCV_ALIGN, 6
        c.nop
        .globl  inpad
        .type   inpad, @function
inpad:
        c.nop
        c.nop
        c.nop
        .size   inpad, . - inpad
        .globl  after
after:
        ret
