# An object's definition shadows the C runtime's, as llvm-jitlink's linked
# objects shadow the process's symbols: this object defines the EHABI
# personality routine __aeabi_unwind_cpp_pr0, and the armhf runtime's
# libgcc_eh(unwind-arm.o), pulled in for __aeabi_unwind_cpp_pr1, defines it
# too. The member's copy loses; its own references bind to this one. (A
# failed member definition used to leave its object without a graph, and
# the next lookup of its names crashed the link.)
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=armv7-none-linux-gnueabi -arm-add-build-attributes -filetype=obj -o %t/shadow.o %s
# RUN: linklab -noexec -slab-allocate 10Mb -slab-address 0x76000000 -slab-page-size 4096 \
# RUN:     -check %s %t/shadow.o

        .text
        .syntax unified
        .globl  __aeabi_unwind_cpp_pr0
        .type   __aeabi_unwind_cpp_pr0,%function
        .p2align 2
__aeabi_unwind_cpp_pr0:
        bx      lr

        .globl  main
        .type   main,%function
        .p2align 2
main:
        .fnstart
        push    {r11, lr}
        pop     {r11, pc}
        .fnend

        .data
        .p2align 2
# jitlink-check: *{4}pr0_ptr = __aeabi_unwind_cpp_pr0
        .globl  pr0_ptr
pr0_ptr:
        .word   __aeabi_unwind_cpp_pr0
