# The relocations whose little-endian tests (../aarch64/ELF_aarch64_branch.s,
# ELF_aarch64_tls_le.s) read instruction words with *{4}, on aarch64_be:
# R_AARCH64_CALL26/JUMP26 (Branch26PCRel) to a local function, with an
# addend, and to an external one through a stub; R_AARCH64_TLSLE_ADD_TPREL_*
# and TLSLE_MOVW_TPREL_G0..G2. Fields are checked with decode_operand, and
# the instruction bytes, little-endian in either byte order, raw: the
# assembler's MOVN for tprel_g2 becomes MOVZ (d2800000 | imm16 << 5).
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 refuses big-endian AArch64 objects ("Object is not a relocatable ELF file")
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64_be-unknown-linux-gnu -filetype=obj -o %t/bt.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:   -slab-page-size 4096 -abs external_func=0xfff10000 -entry=local_func -check %s -show-relocated-section-contents %t/bt.o \
# RUN:   | FileCheck %s
# .text at 0xfff02000: ret; bl local_func (-1: 97ffffff); b local_func (-2:
# 17fffffe); bl local_func + 8 (-1 again); bl/b to the stub after .text, at
# +0x2c (94000007, 14000006); then add x0, x0, #2, lsl #12 (91400800);
# add x0, x0, #8 (91002000); movz x0, #0, lsl #32 (d2c00000, from movn);
# movk x0, #0, lsl #16 (f2a00000); movk x0, #0x2008 (f2840100).
# CHECK:      .text content:
# CHECK-NEXT: 0xfff02000: c0 03 5f d6 ff ff ff 97 fe ff ff 17 ff ff ff 97
# CHECK-NEXT: 0xfff02010: 07 00 00 94 06 00 00 14 00 08 40 91 00 20 00 91
# CHECK-NEXT: 0xfff02020: 00 00 c0 d2 00 00 a0 f2 00 01 84 f2

        .text
        .globl  local_func
        .p2align 2
local_func:
        ret

# jitlink-check: decode_operand(call_local, 0) = (local_func - call_local)[27:2] - (1 << 26)
        .globl  call_local
call_local:
        bl      local_func
# jitlink-check: decode_operand(jump_local, 0) = (local_func - jump_local)[27:2] - (1 << 26)
        .globl  jump_local
jump_local:
        b       local_func
# jitlink-check: decode_operand(call_addend, 0) = ((local_func + 8) - call_addend)[27:2] - (1 << 26)
        .globl  call_addend
call_addend:
        bl      local_func + 8
# jitlink-check: decode_operand(call_external, 0) = (stub_addr(bt.o, external_func) - call_external)[27:2]
# jitlink-check: decode_operand(jump_external, 0) = (stub_addr(bt.o, external_func) - jump_external)[27:2]
# jitlink-check: *{8}(got_addr(bt.o, external_func)) = external_func
        .globl  call_external
call_external:
        bl      external_func
        .globl  jump_external
jump_external:
        b       external_func

# TPOFF(tb_far) = 16 (the TCB) + alignUp(4, 8) + 0x1ff0 = 0x2008.
# jitlink-check: decode_operand(le_hi12, 2) = 2
        .globl  le_hi12
le_hi12:
        add     x0, x0, :tprel_hi12:tb_far
# jitlink-check: decode_operand(le_lo12_nc, 2) = 8
        .globl  le_lo12_nc
le_lo12_nc:
        add     x0, x0, :tprel_lo12_nc:tb_far
# jitlink-check: decode_operand(le_g2, 1) = 0
# jitlink-check: decode_operand(le_g1, 2) = 0
# jitlink-check: decode_operand(le_g0, 2) = 0x2008
        .globl  le_g2, le_g1, le_g0
le_g2:
        movz    x0, #:tprel_g2:tb_far
le_g1:
        movk    x0, #:tprel_g1_nc:tb_far
le_g0:
        movk    x0, #:tprel_g0:tb_far

        .section .tdata,"awT",@progbits
        .globl  td
        .p2align 2
td:
        .word   0x11223344

        .section .tbss,"awT",@nobits
        .p2align 3
tb:
        .zero   0x1ff0
        .globl  tb_far
tb_far:
        .quad   0
