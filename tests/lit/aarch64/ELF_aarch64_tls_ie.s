# TLS initial exec: R_AARCH64_TLSIE_ADR_GOTTPREL_PAGE21 and
# R_AARCH64_TLSIE_LD64_GOTTPREL_LO12_NC reach an 8-byte entry (in $__TLSGOT)
# holding the symbol's thread-pointer offset.
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 rejects TLSIE relocations (unsupported on ELF/aarch64)
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64-unknown-linux-gnu -filetype=obj -o %t/tls_ie.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:   -slab-page-size 4096 -check %s %t/tls_ie.o

        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

# Entries are made in relocation order: tb_far's first, then td's.
# jitlink-check: *{8}(section_addr(tls_ie.o, $__TLSGOT)) = 0x2008
# jitlink-check: *{8}(section_addr(tls_ie.o, $__TLSGOT) + 8) = 16
# jitlink-check: decode_operand(ie_adrp, 1) = \
# jitlink-check:     (section_addr(tls_ie.o, $__TLSGOT)[32:12] - ie_adrp[32:12])
# jitlink-check: decode_operand(ie_ldr, 2) = section_addr(tls_ie.o, $__TLSGOT)[11:3]
# jitlink-check: decode_operand(ie_ldr_td, 2) = (section_addr(tls_ie.o, $__TLSGOT) + 8)[11:3]
        .globl  ie_adrp
        .p2align 2
ie_adrp:
        adrp    x0, :gottprel:tb_far
        .size   ie_adrp, .-ie_adrp

        .globl  ie_ldr
        .p2align 2
ie_ldr:
        ldr     x0, [x0, :gottprel_lo12:tb_far]
        .size   ie_ldr, .-ie_ldr

        .globl  ie_adrp_td
        .p2align 2
ie_adrp_td:
        adrp    x0, :gottprel:td
        .size   ie_adrp_td, .-ie_adrp_td

        .globl  ie_ldr_td
        .p2align 2
ie_ldr_td:
        ldr     x0, [x0, :gottprel_lo12:td]
        .size   ie_ldr_td, .-ie_ldr_td

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
