# A section anchor past the end of the .bss it anchors, as GCC emits them
# (.LANCHORn in glibc's libc.a): a local, untyped, size-0 symbol whose value
# exceeds the section's size, which code addresses at negative offsets.
# The zero-fill block grows to hold it, so the anchor keeps its static-link
# address (section start + value) and the data it reaches is in the block.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 refuses a symbol past its block's end, so it cannot link glibc's RISC-V libc.a (libc-tls.o)
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 -filetype=obj -o %t/anchor.o %s
# RUN: llvm-readelf -s %t/anchor.o | FileCheck --check-prefix=ANCHOR %s
# ANCHOR: 0000000000001000 0 NOTYPE LOCAL DEFAULT {{[0-9]+}} .LANCHOR1
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/anchor.o

        .text
        .globl  main
        .p2align 2
main:
# jitlink-check: decode_operand(main, 1) = (counter - main + 0x800)[31:12]
        auipc   a0, %pcrel_hi(.LANCHOR1 - 0xff8)
# jitlink-check: decode_operand(main + 4, 2) = (counter - main)[11:0]
        addi    a0, a0, %pcrel_lo(main)
        ret

        .bss
        .p2align 3
        .zero   8
        .globl  counter
counter:
        .zero   8
        .set    .LANCHOR1, counter + 0xff8
