# Data relocations in a big-endian AArch64 object: R_AARCH64_ABS64/32/16
# (Pointer64/32/16), R_AARCH64_PREL64/32/16 (Delta64/32/16), with addends.
# The psABI stores data big-endian on aarch64_be: the *{N} reads of -check
# read in the target's byte order (as RuntimeDyldChecker does), and the
# relocated bytes, shown raw, are checked against values worked out by hand
# (the same source assembled little-endian gives the same addresses).
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 refuses big-endian AArch64 objects ("Object is not a relocatable ELF file")
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64_be-unknown-linux-gnu -filetype=obj -o %t/data.o %s
# RUN: llvm-readelf -h %t/data.o | FileCheck --check-prefix=ELF %s
# ELF: Data: 2's complement, big endian
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:   -slab-page-size 4096 -abs external_data=0xfff10000 -abs low_data=0x12345678 \
# RUN:   -check %s -show-relocated-section-contents %t/data.o | FileCheck %s
# RUN: not llvm-jitlink -noexec %t/data.o 2>&1 | FileCheck --check-prefix=LLVM %s
# LLVM: Object is not a relocatable ELF file
#
# .data is at 0xfff00000, main at 0xfff01000. Each word is the byte-reverse
# of what llvm-jitlink-22 writes for the source assembled little-endian
# (without the 16-bit fields, whose relocations it rejects).
# CHECK:      .data content:
# CHECK-NEXT: 0xfff00000: 00 00 00 00 ff f0 10 00 00 00 00 00 ff f1 00 10
# CHECK-NEXT: 0xfff00010: 12 34 56 78 00 00 ff ec 00 00 00 00 00 00 0f ec
# CHECK-NEXT: 0xfff00020: 00 00 0f e0 56 78 1f da

        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

        .data
        .p2align 3
# jitlink-check: *{8}abs64_local = main
        .globl  abs64_local
abs64_local:
        .xword  main
        .size   abs64_local, 8

# jitlink-check: *{8}abs64_external = external_data + 0x10
        .globl  abs64_external
abs64_external:
        .xword  external_data + 0x10
        .size   abs64_external, 8

# jitlink-check: *{4}abs32 = low_data
        .globl  abs32
abs32:
        .word   low_data
        .size   abs32, 4

# jitlink-check: *{4}prel32 = (external_data - prel32)[31:0]
        .globl  prel32
prel32:
        .word   external_data - .
        .size   prel32, 4

# jitlink-check: *{8}prel64 = (main - prel64) + 4
        .globl  prel64
prel64:
        .xword  main - . + 4
        .size   prel64, 8

# A cross-section PREL32 backwards into .text:
# jitlink-check: *{4}prel32_text = (main - prel32_text)[31:0]
        .globl  prel32_text
prel32_text:
        .word   main - .
        .size   prel32_text, 4

# jitlink-check: *{2}abs16 = 0x5678
        .globl  abs16
abs16:
        .hword  low_data - 0x12340000
        .size   abs16, 2

# jitlink-check: *{2}prel16 = (main - prel16 + 0x1000)[15:0]
        .globl  prel16
prel16:
        .hword  main - . + 0x1000
        .size   prel16, 2
