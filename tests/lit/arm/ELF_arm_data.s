# Data relocations: R_ARM_ABS32 and R_ARM_TARGET1 (absolute on Linux),
# R_ARM_REL32, R_ARM_PREL31 (bits 30:0, bit 31 kept). The addends are the
# words' own contents (SHT_REL).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj -o %t/elf_arm_data.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x76ff0000 \
# RUN:     -slab-page-size 4096 -abs ext_data=0x76bbe880 -check %s %t/elf_arm_data.o

        .text
        .syntax unified
        .globl  main
        .type   main,%function
        .p2align 2
main:
        bx      lr
        .size   main, .-main

        .data
        .p2align 2
# jitlink-check: *{4}abs32 = ext_data
# jitlink-check: *{4}(abs32 + 4) = ext_data + 12
# jitlink-check: *{4}(abs32 + 8) = local_word - 4
        .globl  abs32
abs32:
        .word   ext_data
        .word   ext_data + 12
        .word   local_word - 4

# jitlink-check: *{4}target1 = main
        .globl  target1
target1:
        .reloc  ., R_ARM_TARGET1, main
        .word   0

# jitlink-check: (rel32 + *{4}rel32)[31:0] = ext_data
# jitlink-check: ((rel32 + 4) + *{4}(rel32 + 4))[31:0] = local_word + 8
        .globl  rel32
rel32:
        .word   ext_data - .
        .word   local_word + 8 - .

# PREL31 keeps bit 31 of the word (an EHABI table's "inline" flag).
# jitlink-check: (*{4}prel31)[31:31] = 1
# jitlink-check: (*{4}prel31)[30:0] = (local_word - prel31)[30:0]
        .globl  prel31
prel31:
        .reloc  ., R_ARM_PREL31, local_word
        .word   0x80000000

        .globl  local_word
local_word:
        .word   0x12345678
