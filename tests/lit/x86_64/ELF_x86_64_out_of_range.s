# Out-of-range fixups fail with llvm-jitlink's message, which LLVM's own tests
# match: "relocation target <S+A> (<name>[:<S> + <A>]) is out of range of
# <kind> fixup at address <S> (<block's symbol>, <block> + <offset>)" (sic:
# JITLink prints the target's address after "fixup at address"). linklab
# appends its own detail after it (value, range, section offset).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj --defsym DELTA32=1 -o %t/delta32.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -abs far=0x123456789 %t/delta32.o 2>&1 | FileCheck %s --check-prefix=DELTA32
# DELTA32: error: In graph {{.*}}delta32.o, section .text: relocation target 0x123456785 (far:0x123456789 + 0xfffffffffffffffc) is out of range of Delta32 fixup at address 0x123456789 (main, 0x7fff0000 + 0x3)
#
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj --defsym POINTER32=1 -o %t/pointer32.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -abs far=0x123456789 %t/pointer32.o 2>&1 | FileCheck %s --check-prefix=POINTER32
# POINTER32: error: In graph {{.*}}pointer32.o, section .text: relocation target 0x12345678d (far:0x123456789 + 0x4) is out of range of Pointer32 fixup at address 0x123456789 (main, 0x7fff0000 + 0x1)
#
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj --defsym POINTER32S=1 -o %t/pointer32s.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -abs far=0x123456789 %t/pointer32s.o 2>&1 | FileCheck %s --check-prefix=POINTER32S
# POINTER32S: error: In graph {{.*}}pointer32s.o, section .text: relocation target 0x123456789 (far) is out of range of Pointer32Signed fixup at address 0x123456789 (main, 0x7fff0000 + 0x3)
#
# A data block: named by its symbol.
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj --defsym DATA=1 -o %t/data.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -abs far=0x123456789 %t/data.o 2>&1 | FileCheck %s --check-prefix=DATA
# DATA: error: In graph {{.*}}data.o, section .data: relocation target 0x123456789 (far) is out of range of Pointer32 fixup at address 0x123456789 (ptr32, 0x7fff0000 + 0x0)

        .text
        .globl  main
        .p2align 4
main:
.ifdef DELTA32
        leaq    far(%rip), %rax
.endif
.ifdef POINTER32
        movl    $far+4, %eax
.endif
.ifdef POINTER32S
        movq    $far, %rax
.endif
        retq

.ifdef DATA
        .data
        .globl  ptr32
ptr32:
        .long   far
.endif
