# Branch ranges: B16 reaches [-128 KiB, 128 KiB - 4]. The last in-range
# offset links; one word more is an error that starts with llvm-jitlink's
# wording. A branch to an odd address is an alignment error.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=loongarch64-linux-gnu -filetype=obj -o %t/in_range.o %s
# RUN: llvm-mc -triple=loongarch64-linux-gnu -filetype=obj --defsym OUT=1 -o %t/out_of_range.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 1Mb -slab-address 0x7f000000 \
# RUN:     -slab-page-size 4096 -check %s %t/in_range.o
# RUN: not linklab -noexec -no-process-syms -slab-allocate 1Mb -slab-address 0x7f000000 \
# RUN:     -slab-page-size 4096 %t/out_of_range.o 2>&1 | FileCheck %s
# CHECK: In graph {{.*}}out_of_range.o, section .text: relocation target 0x7f020000 (far) is out of range of Branch16PCRel fixup at address 0x7f020000 (main, 0x7f000000 + 0x0)

        .text
        .globl  main
        .p2align 2
main:
# jitlink-check: (*{4}main)[25:10] = 0x7fff
        beq     $a0, $a1, far
        .size   main, .-main
        .section .text.far,"ax",@progbits
.ifdef OUT
        .space  0x1fffc
.else
        .space  0x1fff8
.endif
        .globl  far
far:
        ret
