# Where linklab goes beyond llvm-jitlink-22: R_LARCH_64_PCREL (S + A - P,
# 64 bits; llvm-jitlink-22 refuses it: "Unsupported loongarch relocation:109"),
# and errors for a misaligned branch target and a malformed R_LARCH_ALIGN.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 does not link R_LARCH_64_PCREL.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=loongarch64-linux-gnu -filetype=obj -o %t/pcrel64.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 1Mb -slab-address 0x7f000000 \
# RUN:     -slab-page-size 4096 -abs far_data=0x1000 -check %s %t/pcrel64.o
# RUN: llvm-mc -triple=loongarch64-linux-gnu -filetype=obj --defsym MISALIGNED=1 -o %t/misaligned.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 1Mb -slab-address 0x7f000000 \
# RUN:     -slab-page-size 4096 -abs far_data=0x1000 %t/misaligned.o 2>&1 | FileCheck --check-prefix=ALIGN %s
# ALIGN: misaligned.o: .text+0x0: Branch26PCRel against odd: value 0x{{[0-9a-f]*}} is not aligned to 4 bytes
# RUN: llvm-mc -triple=loongarch64-linux-gnu -filetype=obj --defsym BADALIGN=1 -o %t/badalign.o %s
# RUN: not linklab -noexec -no-process-syms %t/badalign.o 2>&1 | FileCheck --check-prefix=BADALIGN %s
# BADALIGN: badalign.o: .text+0x4: R_LARCH_ALIGN (type 102): malformed addend 0x6
# A relocation inside the padding an R_LARCH_ALIGN deletes (only a
# malformed object has one) lands on the padding's start, inside the block
# (it moved before it, to a wild address, and the fixup wrote there: found
# by fuzz_object).
# RUN: llvm-mc -triple=loongarch64-linux-gnu -filetype=obj --defsym INPAD=1 -o %t/inpad.o %s
# RUN: linklab -noexec -no-process-syms -abs far_data=0x1000 -show-graphs=.* %t/inpad.o \
# RUN:     | FileCheck --check-prefix=INPAD %s
# INPAD: (block + 0x00000000), addend = +0x00000000, kind = PageOffset12, target = main

        .text
        .globl  main
        .p2align 2
main:
.ifdef INPAD
        .reloc  ., R_LARCH_ALIGN, 12
        .reloc  .+4, R_LARCH_PCALA_LO12, main
        nop
        nop
        nop
.endif
.ifdef MISALIGNED
        b       odd
.endif
        nop
.ifdef BADALIGN
        .reloc  ., R_LARCH_ALIGN, 6
        nop
        nop
.endif
        ret
        .size   main, .-main
        .section .text.odd,"ax",@progbits
        .p2align 2
        .byte   0, 0
        .globl  odd
odd:
        .byte   0, 0

        .data
        .p2align 3
# jitlink-check: *{8}pcrel64 = (far_data - pcrel64)
# jitlink-check: *{8}(pcrel64 + 8) = ((main + 16) - (pcrel64 + 8))
        .globl  pcrel64
pcrel64:
        .quad   far_data - .
        .quad   main + 16 - .
