# TLS descriptors (what clang emits for -fPIC TLS): R_AARCH64_TLSDESC_ADR_PAGE21,
# _LD64_LO12 and _ADD_LO12 reach a 16-byte descriptor {resolver, TPOFF};
# the static resolver `ldr x0, [x0, #8]; ret` returns the offset, and
# R_AARCH64_TLSDESC_CALL (a relaxation hint) leaves the blr alone.
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 needs the ORC runtime's __tlsdesc_resolver and lays descriptors out differently
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64-unknown-linux-gnu -filetype=obj -o %t/tlsdesc.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:   -slab-page-size 4096 -check %s %t/tlsdesc.o

        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

# jitlink-check: *{8}(section_addr(tlsdesc.o, $__TLSDESC) + 8) = 0x2008
# jitlink-check: *{8}(section_addr(tlsdesc.o, $__TLSDESC)) = section_addr(tlsdesc.o, $__TLSDESC_RESOLVER)
# jitlink-check: *{4}(section_addr(tlsdesc.o, $__TLSDESC_RESOLVER)) = 0xf9400400
# jitlink-check: *{4}(section_addr(tlsdesc.o, $__TLSDESC_RESOLVER) + 4) = 0xd65f03c0
# jitlink-check: decode_operand(desc_adrp, 1) = \
# jitlink-check:     (section_addr(tlsdesc.o, $__TLSDESC)[32:12] - desc_adrp[32:12])
# jitlink-check: decode_operand(desc_ldr, 2) = section_addr(tlsdesc.o, $__TLSDESC)[11:3]
# jitlink-check: decode_operand(desc_add, 2) = section_addr(tlsdesc.o, $__TLSDESC)[11:0]
# jitlink-check: *{4}desc_call = 0xd63f0020
        .globl  desc_adrp
        .p2align 2
desc_adrp:
        adrp    x0, :tlsdesc:tb_far
        .size   desc_adrp, .-desc_adrp

        .globl  desc_ldr
        .p2align 2
desc_ldr:
        ldr     x1, [x0, :tlsdesc_lo12:tb_far]
        .size   desc_ldr, .-desc_ldr

        .globl  desc_add
        .p2align 2
desc_add:
        add     x0, x0, :tlsdesc_lo12:tb_far
        .size   desc_add, .-desc_add

        .globl  desc_call
        .p2align 2
desc_call:
        .tlsdesccall tb_far
        blr     x1
        .size   desc_call, .-desc_call

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
