# Out-of-range fixups fail with llvm-jitlink's message, which LLVM's own tests
# match: "relocation target <S+A> (<name>[:<S> + <A>]) is out of range of
# <kind> fixup at address <S> (<block's symbol>, <block> + <offset>)" (sic:
# JITLink prints the target's address after "fixup at address"). linklab
# appends its own detail after it (value, range, section offset).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 -mattr=+c,-relax -filetype=obj --defsym BRANCH=1 -o %t/branch.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -abs far=0x1234567800 %t/branch.o 2>&1 | FileCheck %s --check-prefix=BRANCH
# BRANCH: error: In graph {{.*}}branch.o, section .text: relocation target 0x1234567800 (far) is out of range of R_RISCV_BRANCH fixup at address 0x1234567800 (main, 0x7fff0000 + 0x0)
#
# RUN: llvm-mc -triple=riscv64 -mattr=+c,-relax -filetype=obj --defsym JAL=1 -o %t/jal.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -abs far=0x1234567800 %t/jal.o 2>&1 | FileCheck %s --check-prefix=JAL
# JAL: error: In graph {{.*}}jal.o, section .text: relocation target 0x1234567800 (far) is out of range of R_RISCV_JAL fixup at address 0x1234567800 (main, 0x7fff0000 + 0x0)
#
# RUN: llvm-mc -triple=riscv64 -mattr=+c,-relax -filetype=obj --defsym HI20=1 -o %t/hi20.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -abs far=0x1234567800 %t/hi20.o 2>&1 | FileCheck %s --check-prefix=HI20
# HI20: error: In graph {{.*}}hi20.o, section .text: relocation target 0x1234567800 (far) is out of range of R_RISCV_HI20 fixup at address 0x1234567800 (main, 0x7fff0000 + 0x0)
#
# RUN: llvm-mc -triple=riscv64 -mattr=+c,-relax -filetype=obj --defsym PCREL_HI20=1 -o %t/pcrel_hi20.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -abs far=0x1234567800 %t/pcrel_hi20.o 2>&1 | FileCheck %s --check-prefix=PCREL_HI20
# PCREL_HI20: error: In graph {{.*}}pcrel_hi20.o, section .text: relocation target 0x1234567800 (far) is out of range of R_RISCV_PCREL_HI20 fixup at address 0x1234567800 (main, 0x7fff0000 + 0x0)
#
# RUN: llvm-mc -triple=riscv64 -mattr=+c,-relax -filetype=obj --defsym RVC_JUMP=1 -o %t/rvc_jump.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -abs far=0x1234567800 %t/rvc_jump.o 2>&1 | FileCheck %s --check-prefix=RVC_JUMP
# RVC_JUMP: error: In graph {{.*}}rvc_jump.o, section .text: relocation target 0x1234567800 (far) is out of range of R_RISCV_RVC_JUMP fixup at address 0x1234567800 (main, 0x7fff0000 + 0x0)
#
# RUN: llvm-mc -triple=riscv64 -mattr=+c,-relax -filetype=obj --defsym RVC_BRANCH=1 -o %t/rvc_branch.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -abs far=0x1234567800 %t/rvc_branch.o 2>&1 | FileCheck %s --check-prefix=RVC_BRANCH
# RVC_BRANCH: error: In graph {{.*}}rvc_branch.o, section .text: relocation target 0x1234567800 (far) is out of range of R_RISCV_RVC_BRANCH fixup at address 0x1234567800 (main, 0x7fff0000 + 0x0)

        .text
        .option exact
        .globl  main
        .p2align 2
main:
.ifdef BRANCH
        beq     a0, a1, far
.endif
.ifdef JAL
        jal     far
.endif
.ifdef HI20
        lui     a0, %hi(far)
.endif
.ifdef PCREL_HI20
        auipc   a0, %pcrel_hi(far)
.endif
.ifdef RVC_JUMP
        c.j     far
.endif
.ifdef RVC_BRANCH
        c.beqz  a0, far
.endif
        ret
