# A Thumb function's address, taken as data, carries its T bit: ABS32,
# REL32, PREL31 and MOVW compute (S + A) | T (AAELF32 5.6.1), so a `blx`
# or `bx` through the pointer enters Thumb state; MOVT takes bits 31:16 of
# S + A. Arm functions and data have T = 0. Symbols for jitlink-check are
# the functions' (even) addresses.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 leaves the T bit out of data relocations (and has no R_ARM_MOVW_PREL_NC).
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj -o %t/elf_arm_thumb_bit.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x76ff0000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_arm_thumb_bit.o

        .text
        .syntax unified
        .arm
        .globl  main
        .type   main,%function
        .p2align 2
main:
# jitlink-check: (*{4}movw_thumb)[11:0] = (thumb_func + 1)[11:0]
# jitlink-check: (*{4}movw_thumb)[19:16] = (thumb_func + 1)[15:12]
# jitlink-check: (*{4}movt_thumb)[11:0] = thumb_func[27:16]
        .globl  movw_thumb
movw_thumb:
        movw    r0, :lower16:thumb_func
        .globl  movt_thumb
movt_thumb:
        movt    r0, :upper16:thumb_func
# Arm MOVW/MOVT PC-relative forms.
# jitlink-check: (*{4}movw_prel)[11:0] = (local_data - movw_prel)[11:0]
# jitlink-check: (*{4}movw_prel)[19:16] = (local_data - movw_prel)[15:12]
# jitlink-check: (*{4}movt_prel)[11:0] = (local_data - movt_prel)[27:16]
# jitlink-check: (*{4}movt_prel)[19:16] = (local_data - movt_prel)[31:28]
        .globl  movw_prel
movw_prel:
        movw    r1, :lower16:(local_data - movw_prel)
        .globl  movt_prel
movt_prel:
        movt    r1, :upper16:(local_data - movt_prel)
        blx     r0
        .size   main, .-main

        .thumb
        .globl  thumb_func
        .type   thumb_func,%function
        .p2align 2
        .thumb_func
thumb_func:
# Thumb MOVW of a Thumb function's address sets bit 0 too.
# jitlink-check: (*{2}(thumb_movw + 2))[7:0] = (thumb_func + 1)[7:0]
        .globl  thumb_movw
thumb_movw:
        movw    r0, :lower16:thumb_func
        bx      lr
        .size   thumb_func, .-thumb_func

        .data
        .p2align 2
# jitlink-check: *{4}ptrs = thumb_func + 1
# jitlink-check: *{4}(ptrs + 4) = main
# jitlink-check: ((ptrs + 8) + *{4}(ptrs + 8))[31:0] = thumb_func + 1
        .globl  ptrs
ptrs:
        .word   thumb_func
        .word   main
        .word   thumb_func - .
        .globl  local_data
local_data:
        .word   0
