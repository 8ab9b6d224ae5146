# Where linklab differs from llvm-jitlink-22 by design: R_PPC64_ADDR32
# (llvm-jitlink-22 maps it to Pointer32 but cannot apply it), the DS forms
# keep the instruction's low two bits (ldu, lwa, stdu: llvm-jitlink-22 clears
# them), the HIGHER/HIGHEST pieces take any 64-bit value (llvm-jitlink-22
# range-checks them as int32), and R_PPC64_ADDR14's absolute branch target.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 rejects or miscomputes these.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=powerpc64le-linux-gnu -filetype=obj -o %t/elf_ppc_only.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -abs big=0x123456789abcdef0 -abs small=0x12345678 -abs low=0x1230 \
# RUN:     -check %s %t/elf_ppc_only.o

        .abiversion 2
        .text
        .globl  main
        .p2align 4
main:
# lwa (DS form, XO = 2) keeps its 2; the absolute branch keeps AA/LK.
# jitlink-check: *{2}lwa_site = (small + 4)[15:0] + 2
# jitlink-check: *{4}abs_branch = 0x48001232
        .globl  lwa_site, abs_branch
lwa_site:
        lwa     3, small@l+4(3)
abs_branch:
        .reloc  ., R_PPC64_ADDR14, low
        .long   0x48000002
        blr
        .size   main, .-main

        .data
        .p2align 3
# jitlink-check: *{4}addr32 = small
# jitlink-check: *{2}pieces = big[47:32]
# jitlink-check: *{2}(pieces + 2) = (big + 0x8000)[47:32]
# jitlink-check: *{2}(pieces + 4) = big[63:48]
# jitlink-check: *{2}(pieces + 6) = (big + 0x8000)[63:48]
# jitlink-check: *{2}(pieces + 8) = big[31:16]
        .globl  addr32, pieces
addr32:
        .long   small
pieces:
        .reloc  ., R_PPC64_ADDR16_HIGHER, big
        .short  0
        .reloc  ., R_PPC64_ADDR16_HIGHERA, big
        .short  0
        .reloc  ., R_PPC64_ADDR16_HIGHEST, big
        .short  0
        .reloc  ., R_PPC64_ADDR16_HIGHESTA, big
        .short  0
        .reloc  ., R_PPC64_ADDR16_HIGH, big
        .short  0
