# R_LARCH_ALIGN: a relaxing assembler pads `.p2align` with the most NOPs
# the alignment could need; after allocation the linker deletes those that
# overshoot, moving the code and symbols after them back. Without a symbol
# the addend is the padding size; with a max-bytes limit (`.p2align 5,,8`)
# the assembler names a label and encodes log2(alignment) | max << 8,
# and padding that cannot meet the limit is deleted whole.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=loongarch64-linux-gnu -mattr=+relax -filetype=obj -o %t/elf_la64_align.o %s
# RUN: llvm-readelf -r %t/elf_la64_align.o | FileCheck --check-prefix=RELOCS %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_la64_align.o
#
# RELOCS: R_LARCH_ALIGN{{ +}}c{{ *$}}
# RELOCS: R_LARCH_ALIGN{{.*}} + 805

        .text
        .globl  main
        .p2align 4
main:
# A relaxable instruction first: only after one does the assembler leave
# alignment to the linker.
        call36  target
# main is 32-aligned, so main + 8 needs 8 of the 12 bytes of padding.
# jitlink-check: aligned16 = main + 16
# jitlink-check: (aligned16 - main) = 16
        .p2align 4
        .globl  aligned16
aligned16:
        nop
        nop
        nop
# aligned16 + 12 is 4 bytes short of a 32-byte boundary: the limit holds
# (4 <= 8), so 4 of the 28 bytes of padding stay.
# jitlink-check: limited = aligned16 + 16
        .p2align 5,,8
        .globl  limited
limited:
# The branch after the padding still reaches its target.
# jitlink-check: (*{4}branch)[25:10] = ((target - branch) >> 2)[15:0]
        .globl  branch
branch:
        b       target
        nop
        .p2align 4
        .globl  target
target:
        ret
        .size   main, .-main
