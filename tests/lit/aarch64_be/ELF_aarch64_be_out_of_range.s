# Range errors on aarch64_be start with llvm-jitlink's wording for the same
# condition (JITLink's makeTargetOutOfRangeError), then give linklab's
# detail: a CondBranch19PCRel instruction fixup and a Pointer32 data fixup
# (big-endian data) one step past their ranges, after the last in-range
# values link.
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 refuses big-endian AArch64 objects ("Object is not a relocatable ELF file")
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64_be-unknown-linux-gnu -filetype=obj -o %t/in.o %s
# RUN: llvm-mc -triple=aarch64_be-unknown-linux-gnu -filetype=obj --defsym OUT=1 -o %t/out.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 4Mb -slab-address 0x10000 -slab-page-size 4096 \
# RUN:   -abs big=0xffffffff -check %s %t/in.o
# RUN: not linklab -noexec -no-process-syms -slab-allocate 4Mb -slab-address 0x10000 -slab-page-size 4096 \
# RUN:   -abs big=0x100000000 %t/in.o 2>&1 | FileCheck --check-prefix=PTR32 %s
# PTR32: error: In graph {{.*}}in.o, section .data: relocation target 0x100000000 (big) is out of range of Pointer32 fixup at address 0x100000000 (word, {{.*}} + 0x0)
# PTR32-SAME: in.o: .data+0x0: Pointer32 against big: value 0x100000000 out of range [0x0, 0xffffffff]
# RUN: not linklab -noexec -no-process-syms -slab-allocate 4Mb -slab-address 0x10000 -slab-page-size 4096 \
# RUN:   -abs big=0xffffffff %t/out.o 2>&1 | FileCheck --check-prefix=BCOND %s
# BCOND: error: In graph {{.*}}out.o, section .text: relocation target 0x111000 (far) is out of range of CondBranch19PCRel fixup at address 0x111000 (main, 0x11000 + 0x0)
# BCOND-SAME: out.o: .text+0x0: CondBranch19PCRel against far: value 0x100000 out of range [-0x100000, 0xffffc]

        .text
        .globl  main
        .p2align 2
# B.cond reaches [-1 MiB, 1 MiB - 4]; in.o's far is at the last reachable
# address (.text.far follows .text).
# jitlink-check: decode_operand(main, 1) = 0x3ffff
# jitlink-check: far - main = 0xffffc
main:
        b.eq    far
        .size   main, .-main

        .section .text.far,"ax",@progbits
.ifdef OUT
        .space  0xffffc
.else
        .space  0xffff8
.endif
        .globl  far
far:
        ret

        .data
        .globl  word
        .p2align 2
# jitlink-check: *{4}word = 0xffffffff
word:
        .word   big
        .size   word, 4
