# Data and half16 relocations: R_PPC64_ADDR64, ADDR16 with its LO/HI/HA,
# HIGH/HIGHA, HIGHER(A)/HIGHEST(A) pieces and the DS forms (low 2 bits kept),
# REL64, REL32, REL16 with LO/HI/HA, and R_PPC64_TOC (.TOC. itself, 0x8000
# past the GOT's start; __TOC__ is its alias for checks).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=powerpc64le-linux-gnu -filetype=obj -o %t/elf_ppc_data.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -abs big=0x123456789abcdef0 -abs small=0x12345678 -abs small_lo=0x5678 \
# RUN:     -abs negsmall=0xffffffff89abcdef \
# RUN:     -check %s %t/elf_ppc_data.o

        .abiversion 2
        .text
        .globl  main
        .p2align 4
main:
        blr
        .size   main, .-main

        .data
        .p2align 3
# jitlink-check: *{8}addr64 = big
# jitlink-check: *{8}(addr64 + 8) = main + 12
# jitlink-check: *{8}toc = __TOC__
        .globl  addr64, toc
addr64:
        .quad   big
        .quad   main + 12
toc:
        .quad   .TOC.@tocbase

# R_PPC64_ADDR16 takes the whole value, which must fit: small_lo is small's low half.
# jitlink-check: *{2}half = small_lo
# jitlink-check: *{2}(half + 2) = small[15:0]
# jitlink-check: *{2}(half + 4) = small[31:16]
# jitlink-check: *{2}(half + 6) = (small + 0x8000)[31:16]
# The 64-bit pieces, of a negative 32-bit value (llvm-jitlink-22 range-checks
# these as int32 too; ELF_ppc64le_linklab_only.s has full 64-bit values).
# jitlink-check: *{2}(half + 8) = negsmall[31:16]
# jitlink-check: *{2}(half + 10) = (negsmall + 0x8000)[31:16]
# jitlink-check: *{2}(half + 12) = negsmall[47:32]
# jitlink-check: *{2}(half + 14) = (negsmall + 0x8000)[47:32]
# jitlink-check: *{2}(half + 16) = negsmall[63:48]
# jitlink-check: *{2}(half + 18) = (negsmall + 0x8000)[63:48]
        .globl  half
half:
        .reloc  ., R_PPC64_ADDR16, small_lo
        .short  0
        .reloc  ., R_PPC64_ADDR16_LO, small
        .short  0
        .reloc  ., R_PPC64_ADDR16_HI, small
        .short  0
        .reloc  ., R_PPC64_ADDR16_HA, small
        .short  0
        .reloc  ., R_PPC64_ADDR16_HIGH, negsmall
        .short  0
        .reloc  ., R_PPC64_ADDR16_HIGHA, negsmall
        .short  0
        .reloc  ., R_PPC64_ADDR16_HIGHER, negsmall
        .short  0
        .reloc  ., R_PPC64_ADDR16_HIGHERA, negsmall
        .short  0
        .reloc  ., R_PPC64_ADDR16_HIGHEST, negsmall
        .short  0
        .reloc  ., R_PPC64_ADDR16_HIGHESTA, negsmall
        .short  0
# DS forms: the low two bits are the instruction's (0 for ld/std; linklab
# keeps other values, see ELF_ppc64le_linklab_only.s).
# jitlink-check: *{2}ds = (small + 4)[15:0]
# jitlink-check: *{2}(ds + 2) = (small + 8)[15:0]
        .globl  ds
ds:
        .reloc  ., R_PPC64_ADDR16_DS, small + 4
        .short  0
        .reloc  ., R_PPC64_ADDR16_LO_DS, small + 8
        .short  0

        .p2align 3
# jitlink-check: *{8}rel64 = (big - rel64)
# jitlink-check: *{4}rel32 = (main - rel32)[31:0]
# jitlink-check: *{2}rel16 = (main - rel16)[15:0]
# jitlink-check: *{2}(rel16 + 2) = (main - (rel16 + 2))[15:0]
# jitlink-check: *{2}(rel16 + 4) = (main - (rel16 + 4))[31:16]
# jitlink-check: *{2}(rel16 + 6) = ((main - (rel16 + 6)) + 0x8000)[31:16]
        .globl  rel64, rel32, rel16
rel64:
        .quad   big - .
rel32:
        .long   main - .
rel16:
        .reloc  ., R_PPC64_REL16, main
        .short  0
        .reloc  ., R_PPC64_REL16_LO, main
        .short  0
        .reloc  ., R_PPC64_REL16_HI, main
        .short  0
        .reloc  ., R_PPC64_REL16_HA, main
        .short  0
