# MachO section$start$SEG$SECT / section$end$SEG$SECT name the start of a
# section's first block and the end of its last, in the object's own graph;
# a section left empty (dead-stripped, or with no content) gives address 0.
#
# RUN: llvm-mc -triple=arm64-apple-darwin -filetype=obj -o %t.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7f0000 \
# RUN:   -slab-page-size 4096 -show-graphs='.*' -check %s %t.o | FileCheck %s
#
# CHECK:      section __DATA,__set:
# CHECK-EMPTY:
# CHECK-NEXT:   block 0x7f0000 size = 0x00000018, align = 8, alignment-offset = 0
# CHECK-NEXT:     symbols:
# CHECK-NEXT:       0x7f0000 (block + 0x00000000): size: 0x00000018, linkage: strong, scope: default, live  -   _first
# CHECK-NEXT:       0x7f0000 (block + 0x00000000): size: 0x00000000, linkage: strong, scope: local, dead  -   section$start$__DATA$__set
# CHECK-NEXT:       0x7f0018 (block + 0x00000018): size: 0x00000000, linkage: strong, scope: local, dead  -   section$end$__DATA$__set
# CHECK:      Absolute symbols:
# CHECK-NEXT:   0x0: 0x0 (addressable + 0x00000000): size: 0x00000000, linkage: strong, scope: local, live  -   section$start$__DATA$__empty
#
# jitlink-check: *{8}_begin = _first
# jitlink-check: *{8}_end = _first + 24
# jitlink-check: *{8}_empty = 0

        .section __TEXT,__text,regular,pure_instructions
        .globl  _main
        .p2align 2
_main:
        mov     w0, #0
        ret

        .section __DATA,__set
        .p2align 3
        .globl  _first
_first:
        .quad   1
        .quad   2
        .quad   3

        .section __DATA,__empty

        .section __DATA,__data
        .globl  _begin, _end, _empty
        .p2align 3
_begin:
        .quad   section$start$__DATA$__set
_end:
        .quad   section$end$__DATA$__set
_empty:
        .quad   section$start$__DATA$__empty
.subsections_via_symbols
