# Page21 / PageOffset12 / ADRLiteral21: R_AARCH64_ADR_PREL_PG_HI21, R_AARCH64_ADD_ABS_LO12_NC
# and R_AARCH64_ADR_PREL_LO21 against local data, with and without addends.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64-unknown-linux-gnu -filetype=obj -o %t/page.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:   -slab-page-size 4096 -abs external_data=0x1 -check %s %t/page.o

        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

# jitlink-check: decode_operand(test_adrp, 1) = (named_data[32:12] - test_adrp[32:12])
        .globl  test_adrp
        .p2align 2
test_adrp:
        adrp    x0, named_data
        .size   test_adrp, .-test_adrp

# The addend moves the page: named_data + 0x1000 is one page further.
# jitlink-check: decode_operand(test_adrp_addend, 1) = ((named_data + 0x1000)[32:12] - test_adrp_addend[32:12])
        .globl  test_adrp_addend
        .p2align 2
test_adrp_addend:
        adrp    x0, named_data + 0x1000
        .size   test_adrp_addend, .-test_adrp_addend

# jitlink-check: decode_operand(test_add_lo12, 2) = named_data[11:0]
        .globl  test_add_lo12
        .p2align 2
test_add_lo12:
        add     x0, x0, :lo12:named_data
        .size   test_add_lo12, .-test_add_lo12

# jitlink-check: decode_operand(test_add_lo12_addend, 2) = (named_data + 0x13)[11:0]
        .globl  test_add_lo12_addend
        .p2align 2
test_add_lo12_addend:
        add     x0, x0, :lo12:named_data + 0x13
        .size   test_add_lo12_addend, .-test_add_lo12_addend

# ADR: a byte offset, immhi:immlo.
# jitlink-check: decode_operand(test_adr, 1) = named_data - test_adr
        .globl  test_adr
        .p2align 2
test_adr:
        adr     x0, named_data
        .size   test_adr, .-test_adr

# jitlink-check: decode_operand(test_adr_back, 1)[20:0] = (main - test_adr_back)[20:0]
        .globl  test_adr_back
        .p2align 2
test_adr_back:
        adr     x0, main
        .size   test_adr_back, .-test_adr_back

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
