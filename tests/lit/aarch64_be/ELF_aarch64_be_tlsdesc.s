# TLS descriptors on aarch64_be: R_AARCH64_TLSDESC_ADR_PAGE21, _LD64_LO12 and
# _ADD_LO12 reach a 16-byte descriptor {resolver, TPOFF}, two big-endian
# words; the static resolver `ldr x0, [x0, #8]; ret` is code, so its words
# stay little-endian - and a *{4} read of them, in the target's byte order,
# sees them byte-swapped (as RuntimeDyldChecker reads memory).
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 refuses big-endian AArch64 objects ("Object is not a relocatable ELF file")
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64_be-unknown-linux-gnu -filetype=obj -o %t/tlsdesc.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:   -slab-page-size 4096 -check %s -show-relocated-section-contents %t/tlsdesc.o | FileCheck %s
# The descriptor {resolver at 0xfff03014, TPOFF 0x2008}, then the resolver.
# CHECK:      $__TLSDESC content:
# CHECK-NEXT: 0xfff00000: 00 00 00 00 ff f0 30 14 00 00 00 00 00 00 20 08
# CHECK:      $__TLSDESC_RESOLVER content:
# CHECK-NEXT: 0xfff03010: 00 04 40 f9 c0 03 5f d6

        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

# jitlink-check: *{8}(section_addr(tlsdesc.o, $__TLSDESC) + 8) = 0x2008
# jitlink-check: *{8}(section_addr(tlsdesc.o, $__TLSDESC)) = section_addr(tlsdesc.o, $__TLSDESC_RESOLVER)
# jitlink-check: *{4}(section_addr(tlsdesc.o, $__TLSDESC_RESOLVER)) = 0x000440f9
# jitlink-check: *{4}(section_addr(tlsdesc.o, $__TLSDESC_RESOLVER) + 4) = 0xc0035fd6
# jitlink-check: decode_operand(desc_adrp, 1) = \
# jitlink-check:     (section_addr(tlsdesc.o, $__TLSDESC)[32:12] - desc_adrp[32:12])
# jitlink-check: decode_operand(desc_ldr, 2) = section_addr(tlsdesc.o, $__TLSDESC)[11:3]
# jitlink-check: decode_operand(desc_add, 2) = section_addr(tlsdesc.o, $__TLSDESC)[11:0]
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

# TPOFF(tb_far) = 16 (the TCB) + alignUp(4, 8) + 0x1ff0 = 0x2008, as in the
# little-endian test.
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
