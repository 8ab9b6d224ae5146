# COFF sections named like C identifiers stay in their object's graph (the
# __start_/__stop_ merging is ELF's), and an IMAGE_COMDAT_SELECT_ASSOCIATIVE
# section lives and dies with its parent COMDAT: child (parent func is live)
# is kept, dchild (parent dead_fn, local and unreferenced) is dead-stripped.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-pc-windows-msvc -filetype=obj -o %t/assoc.o %s
# RUN: linklab -noexec -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:   -slab-page-size 4096 -show-graphs='.*' -check %s %t/assoc.o | FileCheck %s
#
# CHECK:      section child:
# CHECK-EMPTY:
# CHECK-NEXT:   block 0xfff00000 size = 0x00000008, align = 1, alignment-offset = 0
# CHECK-NEXT:     symbols:
# CHECK-NEXT:       0xfff00000 (block + 0x00000000): size: 0x00000008, linkage: strong, scope: local, live  -   child
# CHECK-NEXT:       0xfff00000 (block + 0x00000000): size: 0x00000008, linkage: strong, scope: local, live  -   kept
# CHECK:      section dchild:
# CHECK-EMPTY:
# CHECK-NEXT: section orphan:
# CHECK-EMPTY:
# CHECK-NEXT: section parent:
# CHECK-NOT:  __start_child

# jitlink-check: *{8}kept = 42
# jitlink-check: decode_operand(func, 4) = kept - next_pc(func)

        .text
        .def main; .scl 2; .type 32; .endef
        .globl main
        .p2align 4
main:
        callq func
        retq

        .section parent,"xr",discard,func
        .globl func
func:
        leaq kept(%rip), %rax
        retq

        .section child,"dr",associative,func
kept:
        .quad 42

        .section orphan,"xr",discard,dead_fn
        .def dead_fn; .scl 3; .type 32; .endef
dead_fn:
        retq

        .section dchild,"dr",associative,dead_fn
        .quad 7
