# TLS local exec: R_AARCH64_TLSLE_ADD_TPREL_HI12 / _LO12 / _LO12_NC and
# R_AARCH64_TLSLE_MOVW_TPREL_G0.._G2 write the symbol's thread-pointer offset.
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 rejects TLSLE relocations (unsupported on ELF/aarch64)
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64-unknown-linux-gnu -filetype=obj -o %t/tls_le.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:   -slab-page-size 4096 -check %s %t/tls_le.o

        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

# jitlink-check: decode_operand(le_hi12, 2) = 2
        .globl  le_hi12
        .p2align 2
le_hi12:
        add     x0, x0, :tprel_hi12:tb_far
        .size   le_hi12, .-le_hi12

# jitlink-check: decode_operand(le_lo12_nc, 2) = 8
        .globl  le_lo12_nc
        .p2align 2
le_lo12_nc:
        add     x0, x0, :tprel_lo12_nc:tb_far
        .size   le_lo12_nc, .-le_lo12_nc

# jitlink-check: decode_operand(le_lo12_td, 2) = 16
        .globl  le_lo12_td
        .p2align 2
le_lo12_td:
        add     x0, x0, :tprel_lo12:td
        .size   le_lo12_td, .-le_lo12_td

# jitlink-check: decode_operand(le_lo12_tb, 2) = 24
        .globl  le_lo12_tb
        .p2align 2
le_lo12_tb:
        add     x0, x0, :tprel_lo12:tb
        .size   le_lo12_tb, .-le_lo12_tb

# The same offsets through the section addresses: the image is laid out
# independently of where the memory manager puts .tdata and .tbss.
# jitlink-check: decode_operand(le_lo12_addend, 2) = (16 + (td - section_addr(tls_le.o, .tdata))) + 2
        .globl  le_lo12_addend
        .p2align 2
le_lo12_addend:
        add     x0, x0, :tprel_lo12:td + 2
        .size   le_lo12_addend, .-le_lo12_addend

# The signed G2/G1/G0 forms: the assembler emits MOVN; for a non-negative
# offset the linker must make it MOVZ (opc bits [30:29] = 0b10).
# jitlink-check: decode_operand(le_g2, 1) = 0
# jitlink-check: (*{4}le_g2)[30:29] = 2
# jitlink-check: decode_operand(le_g1, 2) = 0
# jitlink-check: decode_operand(le_g1_nc, 2) = 0
# jitlink-check: decode_operand(le_g0, 2) = 0x2008
# jitlink-check: decode_operand(le_g0_nc, 2) = 0x2008
        .globl  le_g2
        .p2align 2
le_g2:
        movz    x0, #:tprel_g2:tb_far
        .size   le_g2, .-le_g2

        .globl  le_g1
        .p2align 2
le_g1:
        movk    x0, #:tprel_g1:tb_far
        .size   le_g1, .-le_g1

        .globl  le_g1_nc
        .p2align 2
le_g1_nc:
        movk    x0, #:tprel_g1_nc:tb_far
        .size   le_g1_nc, .-le_g1_nc

        .globl  le_g0
        .p2align 2
le_g0:
        movk    x0, #:tprel_g0:tb_far
        .size   le_g0, .-le_g0

        .globl  le_g0_nc
        .p2align 2
le_g0_nc:
        movk    x0, #:tprel_g0_nc:tb_far
        .size   le_g0_nc, .-le_g0_nc

# The graph's TLS image: .tdata first, then .tbss, each block aligned; it
# starts 16 bytes (the TCB) past the thread pointer. So TPOFF(td) = 16,
# .tbss starts at image offset alignUp(4, 8) = 8, TPOFF(tb) = 16 + 8 = 24 and
# TPOFF(tb_far) = 24 + 0x1ff0 = 0x2008.
        .section .tdata,"awT",@progbits
        .globl  td
        .p2align 2
td:
        .word   0x11223344
        .size   td, 4

        .section .tbss,"awT",@nobits
        .globl  tb
        .p2align 3
tb:
        .zero   0x1ff0
        .size   tb, 0x1ff0
        .globl  tb_far
tb_far:
        .quad   0
        .size   tb_far, 8
