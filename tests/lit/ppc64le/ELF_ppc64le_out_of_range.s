# Range errors start with llvm-jitlink's wording. A half16 value must fit an
# int32 (R_PPC64_ADDR16 of a 33-bit address). R_PPC64_PCREL34 reaches
# [-8 GiB, 8 GiB - 1] from the instruction: the last in-range offset links,
# one byte more is an error.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=powerpc64le-linux-gnu -filetype=obj -o %t/oor.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -abs far=0x100000000 %t/oor.o 2>&1 | FileCheck %s
# CHECK: In graph {{.*}}oor.o, section .data: relocation target 0x100000000 (far) is out of range of Pointer16 fixup at address 0x100000000
#
# The code sits at 0x10001000, after the GOT's page.
# RUN: llvm-mc -triple=powerpc64le-linux-gnu -mcpu=pwr10 -filetype=obj --defsym PCREL=1 -o %t/pcrel.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -abs far34=0x210000fff -check %s %t/pcrel.o
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -abs far34=0x210001000 %t/pcrel.o 2>&1 | FileCheck --check-prefix=PCREL %s
# PCREL: In graph {{.*}}pcrel.o, section .text: relocation target 0x210001000 (far34) is out of range of Delta34 fixup at address 0x210001000 (main, 0x10001000 + 0x0)

        .abiversion 2
        .text
        .globl  main
main:
.ifdef PCREL
# jitlink-check: main = 0x10001000
# jitlink-check: (*{4}main)[17:0] = 0x1ffff
# jitlink-check: *{2}(main + 4) = 0xffff
        pla     3, far34@pcrel
.endif
        blr
.ifndef PCREL
        .data
        .globl  d
d:
        .short  far
.endif
