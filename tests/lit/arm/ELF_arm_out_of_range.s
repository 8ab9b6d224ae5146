# Thumb BL reaches +-16 MiB (J1/J2 encoding: offsets in [-2^24, 2^24 - 2]):
# the last in-range offset links, one halfword more is an error that starts
# with llvm-jitlink's wording.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=thumbv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj -o %t/in_range.o %s
# RUN: llvm-mc -triple=thumbv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj --defsym OUT=1 -o %t/out_of_range.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 20Mb -slab-address 0x76000000 \
# RUN:     -slab-page-size 4096 -check %s %t/in_range.o
# RUN: not linklab -noexec -no-process-syms -slab-allocate 20Mb -slab-address 0x76000000 \
# RUN:     -slab-page-size 4096 %t/out_of_range.o 2>&1 | FileCheck %s
# CHECK: In graph {{.*}}out_of_range.o, section .text: relocation target 0x77000000 (far_func:0x77000004 + 0xfffffffffffffffc) is out of range of Thumb_Call fixup at address 0x77000004 (main, 0x76000000 + 0x0)

        .text
        .syntax unified
        .thumb
        .globl  main
        .type   main,%function
        .p2align 2
        .thumb_func
main:
# jitlink-check: (*{2}main)[10:10] = 0
# jitlink-check: (*{2}main)[9:0] = 0x3ff
# jitlink-check: *{2}(main + 2) = 0xd7ff
        bl      far_func
.ifdef OUT
        .space  0x1000000
.else
        .space  0xfffffe
.endif
        .size   main, .-main
        .globl  far_func
        .type   far_func,%function
        .thumb_func
far_func:
        bx      lr
        .size   far_func, .-far_func
