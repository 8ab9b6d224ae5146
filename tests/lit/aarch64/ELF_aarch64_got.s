# GOT accesses: R_AARCH64_ADR_GOT_PAGE (RequestGOTAndTransformToPage21),
# R_AARCH64_LD64_GOT_LO12_NC (RequestGOTAndTransformToPageOffset12) and
# R_AARCH64_LD64_GOTPAGE_LO15 (RequestGOTAndTransformToPageOffset15, relative
# to the GOT's page), for an external and a local symbol.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64-unknown-linux-gnu -filetype=obj -o %t/got.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:   -slab-page-size 4096 -abs external_data=0xdeadbeef -check %s %t/got.o

        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

# jitlink-check: *{8}(got_addr(got.o, external_data)) = external_data
# jitlink-check: *{8}(got_addr(got.o, named_data)) = named_data
# jitlink-check: decode_operand(test_adrp_got_ext, 1) = \
# jitlink-check:     (got_addr(got.o, external_data)[32:12] - test_adrp_got_ext[32:12])
# jitlink-check: decode_operand(test_ldr_got_ext, 2) = got_addr(got.o, external_data)[11:3]
        .globl  test_adrp_got_ext
        .p2align 2
test_adrp_got_ext:
        adrp    x0, :got:external_data
        .size   test_adrp_got_ext, .-test_adrp_got_ext

        .globl  test_ldr_got_ext
        .p2align 2
test_ldr_got_ext:
        ldr     x0, [x0, :got_lo12:external_data]
        .size   test_ldr_got_ext, .-test_ldr_got_ext

# jitlink-check: decode_operand(test_adrp_got_local, 1) = \
# jitlink-check:     (got_addr(got.o, named_data)[32:12] - test_adrp_got_local[32:12])
# jitlink-check: decode_operand(test_ldr_got_local, 2) = got_addr(got.o, named_data)[11:3]
        .globl  test_adrp_got_local
        .p2align 2
test_adrp_got_local:
        adrp    x0, :got:named_data
        .size   test_adrp_got_local, .-test_adrp_got_local

        .globl  test_ldr_got_local
        .p2align 2
test_ldr_got_local:
        ldr     x0, [x0, :got_lo12:named_data]
        .size   test_ldr_got_local, .-test_ldr_got_local

# LD64_GOTPAGE_LO15: the entry's offset from the GOT's page, in 8-byte units.
# jitlink-check: decode_operand(test_gotpage_lo15, 2) = \
# jitlink-check:     (got_addr(got.o, named_data) - (_GLOBAL_OFFSET_TABLE_ & 0xfffffffffffff000))[14:3]
        .globl  test_gotpage_lo15
        .p2align 2
test_gotpage_lo15:
        ldr     x0, [x0, :gotpage_lo15:named_data]
        .size   test_gotpage_lo15, .-test_gotpage_lo15

        .data
        # Padding puts named_data mid-page, so every low-bit slice is non-zero.
        .skip   0x5f0
        .globl  named_data
        .p2align 4
        .type   named_data,@object
named_data:
        .quad   0x2222222222222222
        .quad   0x3333333333333333
        .size   named_data, .-named_data
