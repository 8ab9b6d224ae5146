# PageOffset12 for loads and stores: R_AARCH64_LDST{8,16,32,64,128}_ABS_LO12_NC.
# The immediate is the low 12 bits of the address scaled by the access size.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64-unknown-linux-gnu -filetype=obj -o %t/ldst.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:   -slab-page-size 4096 -check %s %t/ldst.o

        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

# jitlink-check: decode_operand(test_ldrb, 2) = named_data[11:0]
        .globl  test_ldrb
        .p2align 2
test_ldrb:
        ldrb    w0, [x1, :lo12:named_data]
        .size   test_ldrb, .-test_ldrb

# jitlink-check: decode_operand(test_strb_addend, 2) = (named_data + 3)[11:0]
        .globl  test_strb_addend
        .p2align 2
test_strb_addend:
        strb    w0, [x1, :lo12:named_data + 3]
        .size   test_strb_addend, .-test_strb_addend

# jitlink-check: decode_operand(test_ldrsb, 2) = named_data[11:0]
        .globl  test_ldrsb
        .p2align 2
test_ldrsb:
        ldrsb   x0, [x1, :lo12:named_data]
        .size   test_ldrsb, .-test_ldrsb

# jitlink-check: decode_operand(test_ldrh, 2) = named_data[11:1]
        .globl  test_ldrh
        .p2align 2
test_ldrh:
        ldrh    w0, [x1, :lo12:named_data]
        .size   test_ldrh, .-test_ldrh

# jitlink-check: decode_operand(test_strh, 2) = (named_data + 2)[11:1]
        .globl  test_strh
        .p2align 2
test_strh:
        strh    w0, [x1, :lo12:named_data + 2]
        .size   test_strh, .-test_strh

# jitlink-check: decode_operand(test_ldr32, 2) = named_data[11:2]
        .globl  test_ldr32
        .p2align 2
test_ldr32:
        ldr     w0, [x1, :lo12:named_data]
        .size   test_ldr32, .-test_ldr32

# jitlink-check: decode_operand(test_ldrsw, 2) = (named_data + 4)[11:2]
        .globl  test_ldrsw
        .p2align 2
test_ldrsw:
        ldrsw   x0, [x1, :lo12:named_data + 4]
        .size   test_ldrsw, .-test_ldrsw

# jitlink-check: decode_operand(test_ldr_s, 2) = named_data[11:2]
        .globl  test_ldr_s
        .p2align 2
test_ldr_s:
        ldr     s0, [x1, :lo12:named_data]
        .size   test_ldr_s, .-test_ldr_s

# jitlink-check: decode_operand(test_ldr64, 2) = named_data[11:3]
        .globl  test_ldr64
        .p2align 2
test_ldr64:
        ldr     x0, [x1, :lo12:named_data]
        .size   test_ldr64, .-test_ldr64

# jitlink-check: decode_operand(test_str64, 2) = (named_data + 8)[11:3]
        .globl  test_str64
        .p2align 2
test_str64:
        str     x0, [x1, :lo12:named_data + 8]
        .size   test_str64, .-test_str64

# jitlink-check: decode_operand(test_ldr_d, 2) = named_data[11:3]
        .globl  test_ldr_d
        .p2align 2
test_ldr_d:
        ldr     d0, [x1, :lo12:named_data]
        .size   test_ldr_d, .-test_ldr_d

# jitlink-check: decode_operand(test_ldr128, 2) = named_data[11:4]
        .globl  test_ldr128
        .p2align 2
test_ldr128:
        ldr     q0, [x1, :lo12:named_data]
        .size   test_ldr128, .-test_ldr128

# jitlink-check: decode_operand(test_str128, 2) = named_data[11:4]
        .globl  test_str128
        .p2align 2
test_str128:
        str     q0, [x1, :lo12:named_data]
        .size   test_str128, .-test_str128

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
