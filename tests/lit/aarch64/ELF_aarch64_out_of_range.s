# Out-of-range fixups fail with llvm-jitlink's message, which LLVM's own tests
# match: "relocation target <S+A> (<name>[:<S> + <A>]) is out of range of
# <kind> fixup at address <S> (<block's symbol>, <block> + <offset>)" (sic:
# JITLink prints the target's address after "fixup at address"). linklab
# appends its own detail after it (value, range, section offset).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64-linux-gnu -filetype=obj --defsym PAGE21=1 -o %t/page21.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -abs far=0x1234567800 %t/page21.o 2>&1 | FileCheck %s --check-prefix=PAGE21
# PAGE21: error: In graph {{.*}}page21.o, section .text: relocation target 0x1234567800 (far) is out of range of Page21 fixup at address 0x1234567800 (main, 0x7fff0000 + 0x0)
#
# RUN: llvm-mc -triple=aarch64-linux-gnu -filetype=obj --defsym ADR=1 -o %t/adr.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -abs far=0x1234567800 %t/adr.o 2>&1 | FileCheck %s --check-prefix=ADR
# ADR: error: In graph {{.*}}adr.o, section .text: relocation target 0x1234567808 (far:0x1234567800 + 0x8) is out of range of ADRLiteral21 fixup at address 0x1234567800 (main, 0x7fff0000 + 0x0)
#
# RUN: llvm-mc -triple=aarch64-linux-gnu -filetype=obj --defsym LDR=1 -o %t/ldr.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -abs far=0x1234567800 %t/ldr.o 2>&1 | FileCheck %s --check-prefix=LDR
# LDR: error: In graph {{.*}}ldr.o, section .text: relocation target 0x1234567800 (far) is out of range of LDRLiteral19 fixup at address 0x1234567800 (main, 0x7fff0000 + 0x0)
#
# RUN: llvm-mc -triple=aarch64-linux-gnu -filetype=obj --defsym BCOND=1 -o %t/bcond.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -abs far=0x1234567800 %t/bcond.o 2>&1 | FileCheck %s --check-prefix=BCOND
# BCOND: error: In graph {{.*}}bcond.o, section .text: relocation target 0x1234567800 (far) is out of range of CondBranch19PCRel fixup at address 0x1234567800 (main, 0x7fff0000 + 0x0)
#
# RUN: llvm-mc -triple=aarch64-linux-gnu -filetype=obj --defsym TBZ=1 -o %t/tbz.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -abs far=0x1234567800 %t/tbz.o 2>&1 | FileCheck %s --check-prefix=TBZ
# TBZ: error: In graph {{.*}}tbz.o, section .text: relocation target 0x1234567800 (far) is out of range of TestAndBranch14PCRel fixup at address 0x1234567800 (main, 0x7fff0000 + 0x0)
#
# RUN: llvm-mc -triple=aarch64-linux-gnu -filetype=obj --defsym DATA=1 -o %t/data.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -abs far=0x1234567800 %t/data.o 2>&1 | FileCheck %s --check-prefix=DATA
# DATA: error: In graph {{.*}}data.o, section .data: relocation target 0x1234567800 (far) is out of range of Pointer32 fixup at address 0x1234567800 (p, 0x7fff0000 + 0x0)

        .text
        .globl  main
        .p2align 2
main:
.ifdef PAGE21
        adrp    x0, far
.endif
.ifdef ADR
        adr     x0, far+8
.endif
.ifdef LDR
        ldr     x0, far
.endif
.ifdef BCOND
        b.eq    far
.endif
.ifdef TBZ
        tbz     x0, #0, far
.endif
        ret

.ifdef DATA
        .data
        .p2align 2
        .globl  p
p:
        .word   far
.endif
