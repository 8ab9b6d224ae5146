# GOT-relative forms GCC's -fPIC Arm code uses: R_ARM_BASE_PREL (the GOT's
# origin _GLOBAL_OFFSET_TABLE_ minus P), R_ARM_GOT_BREL (S's GOT entry minus
# the origin) and R_ARM_GOTOFF32 (S minus the origin). The GOT pass defines
# _GLOBAL_OFFSET_TABLE_ at the GOT's start.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 supports none of R_ARM_BASE_PREL, R_ARM_GOT_BREL, R_ARM_GOTOFF32.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj -o %t/elf_arm_got_brel.o %s
# RUN: llvm-readelf -r %t/elf_arm_got_brel.o | FileCheck --check-prefix=RELOCS %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x76ff0000 \
# RUN:     -slab-page-size 4096 -abs ext_data=0x76bbe880 -check %s %t/elf_arm_got_brel.o
# RELOCS: R_ARM_BASE_PREL {{.*}} _GLOBAL_OFFSET_TABLE_
# RELOCS: R_ARM_GOT_BREL {{.*}} ext_data
# RELOCS: R_ARM_GOTOFF32 {{.*}} local_data

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
# jitlink-check: ((base_prel + *{4}base_prel) - _GLOBAL_OFFSET_TABLE_)[31:0] = 0
# jitlink-check: (_GLOBAL_OFFSET_TABLE_ + *{4}got_brel)[31:0] = got_addr(elf_arm_got_brel.o, ext_data)
# jitlink-check: *{4}(got_addr(elf_arm_got_brel.o, ext_data)) = ext_data
# jitlink-check: (_GLOBAL_OFFSET_TABLE_ + *{4}gotoff)[31:0] = local_data + 4
        .globl  base_prel
base_prel:
        .word   _GLOBAL_OFFSET_TABLE_ - .
        .globl  got_brel
got_brel:
        .word   ext_data(GOT)
        .globl  gotoff
gotoff:
        .word   local_data(GOTOFF) + 4

        .globl  local_data
local_data:
        .word   7
