# DS-form (ld, std, lwa) and DQ-form (lxv, stxv, lq, lxvp, stxvp)
# instructions keep their low immediate bits for the opcode, so a _DS
# relocation's value must be a multiple of 4 (16 for DQ-form): the low bits
# survive, and a misaligned value is an error naming the edge, not an access
# silently rounded down. decode_operand reads the DQ-forms' d back. Each
# field is read as the low half of its word, so one set of checks serves
# both byte orders.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 writes `value & ~3` over the whole field (lwa's XO bits too) and checks no alignment.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=powerpc64le-unknown-linux-gnu -mcpu=pwr10 -filetype=obj -o %t/ds.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -check %s %t/ds.o
# RUN: llvm-mc -triple=powerpc64le-unknown-linux-gnu -mcpu=pwr10 -filetype=obj --defsym DS=1 -o %t/bad_ds.o %s
# RUN: not linklab -noexec -no-process-syms %t/bad_ds.o 2>&1 | FileCheck --check-prefix=DS %s
# DS: bad_ds.o: .text+0x{{[0-9a-f]+}}: TOCDelta16LODS against odd: value 0x{{[0-9a-f]+}} is not aligned to 4 bytes
# RUN: llvm-mc -triple=powerpc64le-unknown-linux-gnu -mcpu=pwr10 -filetype=obj --defsym DQ=1 -o %t/bad_dq.o %s
# RUN: not linklab -noexec -no-process-syms %t/bad_dq.o 2>&1 | FileCheck --check-prefix=DQ %s
# DQ: bad_dq.o: .text+0x{{[0-9a-f]+}}: TOCDelta16LODS against word: value 0x{{[0-9a-f]+}} is not aligned to 16 bytes
# RUN: llvm-mc -triple=powerpc64le-unknown-linux-gnu -mcpu=pwr10 -filetype=obj --defsym LQ=1 -o %t/bad_lq.o %s
# RUN: not linklab -noexec -no-process-syms %t/bad_lq.o 2>&1 | FileCheck --check-prefix=LQ %s
# LQ: bad_lq.o: .text+0x{{[0-9a-f]+}}: TOCDelta16LODS against word: value 0x{{[0-9a-f]+}} is not aligned to 16 bytes
# RUN: llvm-mc -triple=powerpc64le-unknown-linux-gnu -mcpu=pwr10 -filetype=obj --defsym ABS=1 -o %t/bad_abs.o %s
# RUN: not linklab -noexec -no-process-syms %t/bad_abs.o 2>&1 | FileCheck --check-prefix=ABS %s
# ABS: bad_abs.o: .text+0x{{[0-9a-f]+}}: Pointer16LODS against odd: value 0x{{[0-9a-f]+}} is not aligned to 4 bytes
# Big-endian (ppc64): the immediate is the word's last two bytes, and the
# opcode that makes a DS field DQ-form is read from the word before it.
# RUN: llvm-mc -triple=powerpc64-unknown-linux-gnu -mcpu=pwr10 -filetype=obj -o %t/ds_be.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -check %s %t/ds_be.o
# RUN: llvm-mc -triple=powerpc64-unknown-linux-gnu -mcpu=pwr10 -filetype=obj --defsym DQ=1 -o %t/bad_dq_be.o %s
# RUN: not linklab -noexec -no-process-syms %t/bad_dq_be.o 2>&1 | FileCheck --check-prefix=DQBE %s
# DQBE: bad_dq_be.o: .text+0x{{[0-9a-f]+}}: TOCDelta16LODS against word: value 0x{{[0-9a-f]+}} is not aligned to 16 bytes

        .abiversion 2
        .text
        .globl  main
        .p2align 4
main:
        addis   2, 12, .TOC.-main@ha
        addi    2, 2, .TOC.-main@l
# lwa (XO 2) and ldu (XO 1) keep their XO bits; lxv (DQ-form, low bits
# 001, TX in bit 3) keeps its low 4 bits.
# jitlink-check: (*{4}lwa_at)[15:0] = (dword - __TOC__)[15:0] | 2
# jitlink-check: (*{4}ldu_at)[15:0] = (dword - __TOC__)[15:0] | 1
# jitlink-check: (*{4}lxv_at)[15:0] = (quad - __TOC__)[15:0] | 9
# jitlink-check: (*{4}stxv_at)[15:0] = (quad - __TOC__)[15:0] | 5
# lq and Power10's lxvp/stxvp are DQ-form too (lq's low 4 bits are 0,
# stxvp's low bits 0001).
# jitlink-check: (*{4}lq_at)[15:0] = (quad - __TOC__)[15:0]
# jitlink-check: (*{4}lxvp_at)[15:0] = (quad - __TOC__)[15:0]
# jitlink-check: (*{4}stxvp_at)[15:0] = (quad - __TOC__)[15:0] | 1
# jitlink-check: decode_operand(lq_at, 1) = quad - __TOC__
# jitlink-check: decode_operand(lxvp_at, 1) = quad - __TOC__
# jitlink-check: decode_operand(stxvp_at, 1) = quad - __TOC__
# jitlink-check: decode_operand(lxv_at, 1) = quad - __TOC__
        .globl  lwa_at, ldu_at, lxv_at, stxv_at, lq_at, lxvp_at, stxvp_at
lwa_at:
        lwa     3, dword@toc@l(2)
ldu_at:
        ldu     3, dword@toc@l(2)
lxv_at:
        lxv     35, quad@toc@l(2)
stxv_at:
        stxv    3, quad@toc@l(2)
lq_at:
        lq      4, quad@toc@l(2)
lxvp_at:
        lxvp    34, quad@toc@l(2)
stxvp_at:
        stxvp   34, quad@toc@l(2)
.ifdef DS
        ld      3, odd@toc@l(2)
.endif
.ifdef DQ
        lxv     3, word@toc@l(2)
.endif
.ifdef LQ
        lq      4, word@toc@l(2)
.endif
.ifdef ABS
        ld      3, odd@l(4)
.endif
        blr
        .size   main, .-main

        .data
        .p2align 4
        .globl  quad, dword, word, odd
quad:
        .quad   0, 0
dword:
        .quad   0
word:
        .long   0
        .short  0
odd:
        .short  0
