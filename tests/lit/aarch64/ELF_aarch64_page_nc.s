# R_AARCH64_ADR_PREL_PG_HI21_NC (Page21NoCheck): ADRP without the +-4GiB check,
# used by the large code model's adrp/movk sequences.
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 rejects R_AARCH64_ADR_PREL_PG_HI21_NC
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64-unknown-linux-gnu -filetype=obj -o %t/page_nc.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:   -slab-page-size 4096 -check %s %t/page_nc.o

        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

# jitlink-check: decode_operand(adrp_nc, 1) = (named_data[32:12] - adrp_nc[32:12])
        .globl  adrp_nc
        .p2align 2
adrp_nc:
        adrp    x0, :pg_hi21_nc:named_data
        .size   adrp_nc, .-adrp_nc

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
