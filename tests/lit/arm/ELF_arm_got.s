# R_ARM_GOT_PREL (and R_ARM_TARGET2, GOT_PREL on Linux): the offset from
# the word to S's GOT entry, which holds S's address.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj -o %t/elf_arm_got.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x76ff0000 \
# RUN:     -slab-page-size 4096 -abs ext_data=0x76bbe880 -check %s %t/elf_arm_got.o

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
# jitlink-check: *{4}(got_addr(elf_arm_got.o, ext_data)) = ext_data
# jitlink-check: *{4}(got_addr(elf_arm_got.o, local_data)) = local_data
# jitlink-check: ((got_prel + *{4}got_prel) - got_addr(elf_arm_got.o, ext_data))[31:0] = 0
# jitlink-check: (((got_prel + 4) + *{4}(got_prel + 4)) - got_addr(elf_arm_got.o, local_data))[31:0] = 4
        .globl  got_prel
got_prel:
        .word   ext_data(GOT_PREL)
        .word   local_data(GOT_PREL) + 4

        .globl  local_data
local_data:
        .word   7
