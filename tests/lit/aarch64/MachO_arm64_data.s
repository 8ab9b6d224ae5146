# MachO arm64 data relocations: ARM64_RELOC_UNSIGNED (8 bytes extern and
# section-relative, 4 bytes extern) and SUBTRACTOR/UNSIGNED pairs, 8 and 4
# bytes, fixing up either end (Delta and NegDelta), with alt-entry symbols.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=arm64-apple-macos -filetype=obj -o %t/data.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7f0000 \
# RUN:   -slab-page-size 4096 -abs _ext_data=0xfeedf00d -check %s %t/data.o

        .section __TEXT,__text,regular,pure_instructions
        .p2align 2
Lanon_fn:
        ret
        .globl  _main
        .p2align 2
_main:
        ret

        .section __DATA,__data
        .p2align 3
Lanon_data:
        .quad   0

# jitlink-check: *{8}_ptr_main = _main
        .globl  _ptr_main
        .p2align 3
_ptr_main:
        .quad   _main

# jitlink-check: *{8}_ptr_ext_addend = _ext_data + 0x10
        .globl  _ptr_ext_addend
        .p2align 3
_ptr_ext_addend:
        .quad   _ext_data + 0x10

# Section-relative (non-extern): the bytes hold the target's address.
# jitlink-check: *{8}_ptr_anon = section_addr(data.o, __TEXT,__text)
        .globl  _ptr_anon
        .p2align 3
_ptr_anon:
        .quad   Lanon_fn

# jitlink-check: *{4}_ptr32 = _ext_data
        .globl  _ptr32
        .p2align 2
_ptr32:
        .long   _ext_data

# Minuend is the fixup's own symbol: Delta.
# jitlink-check: *{8}_delta64 = (_delta64 - _target + 5)
        .globl  _delta64
        .p2align 3
_delta64:
        .quad   _delta64 - _target + 5

# jitlink-check: *{4}_delta32 = (_delta32 - _target + 5)[31:0]
        .globl  _delta32
        .p2align 2
_delta32:
        .long   _delta32 - _target + 5

# Subtrahend is the fixup's own symbol: NegDelta.
# jitlink-check: *{8}_negdelta64 = (_target - _negdelta64 - 3)
        .globl  _negdelta64
        .p2align 3
_negdelta64:
        .quad   _target - _negdelta64 - 3

# jitlink-check: *{4}_negdelta32 = (_target - _negdelta32 - 3)[31:0]
        .globl  _negdelta32
        .p2align 2
_negdelta32:
        .long   _target - _negdelta32 - 3

# An anonymous minuend (section-relative UNSIGNED half of the pair).
# jitlink-check: *{8}_anon_minuend = (section_addr(data.o, __DATA,__data) - _anon_minuend + 7)
        .globl  _anon_minuend
        .p2align 3
_anon_minuend:
        .quad   Lanon_data - _anon_minuend + 7

# The minuend is an alt-entry of the fixup's block.
# jitlink-check: *{4}_alt_holder = (_alt_entry - _target)[31:0]
        .globl  _alt_holder
        .p2align 2
_alt_holder:
        .long   _alt_entry - _target
        .globl  _alt_entry
        .alt_entry _alt_entry
_alt_entry:
        .long   0

        .globl  _target
        .p2align 4
_target:
        .quad   0

        .subsections_via_symbols
