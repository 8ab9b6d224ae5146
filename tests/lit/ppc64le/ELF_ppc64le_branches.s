# Conditional branches to a label in another section (R_PPC64_REL14, and
# the _BRTAKEN/_BRNTAKEN hinted forms, whose prediction bits stay as
# assembled), absolute conditional branches (R_PPC64_ADDR14[_BR[N]TAKEN])
# and absolute branches (R_PPC64_ADDR24: ba/bla), each range- and
# alignment-checked.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 refuses R_PPC64_REL14 and R_PPC64_ADDR24 ("Unsupported ppc64 relocation type").
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=powerpc64le-unknown-linux-gnu -filetype=obj -o %t/br.o %s
# RUN: llvm-readelf -r %t/br.o | FileCheck --check-prefix=RELOCS %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -abs abs_fn=0x1230 -abs abs14=0x7ffc -check %s %t/br.o
# RUN: not linklab -noexec -no-process-syms -abs abs_fn=0x1232 -abs abs14=0x7ffc %t/br.o 2>&1 \
# RUN:   | FileCheck --check-prefix=ALIGN %s
# ALIGN: br.o: .text+0xc: Pointer24 against abs_fn: value 0x1232 is not aligned to 4 bytes
# RUN: not linklab -noexec -no-process-syms -abs abs_fn=0x2000000 -abs abs14=0x7ffc %t/br.o 2>&1 \
# RUN:   | FileCheck --check-prefix=RANGE24 %s
# RANGE24: relocation target 0x2000000 (abs_fn) is out of range of Pointer24 fixup
# RUN: not linklab -noexec -no-process-syms -abs abs_fn=0x1230 -abs abs14=0x8000 %t/br.o 2>&1 \
# RUN:   | FileCheck --check-prefix=RANGE14 %s
# RANGE14: relocation target 0x8000 (abs14) is out of range of Pointer14 fixup
# RUN: llvm-mc -triple=powerpc64le-unknown-linux-gnu -filetype=obj --defsym FAR=1 -o %t/far.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -abs abs_fn=0x1230 -abs abs14=0x7ffc -abs far_away=0x20000000 %t/far.o 2>&1 \
# RUN:   | FileCheck --check-prefix=FAR %s
# FAR: relocation target 0x20000000 (far_away) is out of range of Delta14 fixup
#
# RELOCS-DAG: R_PPC64_REL14 {{.*}} other + 0
# RELOCS-DAG: R_PPC64_REL14_BRTAKEN {{.*}} other + 0
# RELOCS-DAG: R_PPC64_REL14_BRNTAKEN {{.*}} other + 0
# RELOCS-DAG: R_PPC64_ADDR24 {{.*}} abs_fn + 0
# RELOCS-DAG: R_PPC64_ADDR24 {{.*}} abs_fn + 0
# RELOCS-DAG: R_PPC64_ADDR14_BRTAKEN {{.*}} abs14 + 0

        .abiversion 2
        .text
        .globl  main
        .p2align 4
        .type   main,@function
main:
# jitlink-check: (decode_operand(cb, 2) << 2) + cb = other
# jitlink-check: (decode_operand(cb + 4, 2) << 2) + (cb + 4) = other
# jitlink-check: (decode_operand(cb + 8, 2) << 2) + (cb + 8) = other
# The hint bits (BO, bits 21-25) of beq+ / beq- are kept.
# jitlink-check: (*{4}(cb + 4))[31:16] = 0x41e2
# jitlink-check: (*{4}(cb + 8))[31:16] = 0x41c2
        .globl  cb
cb:
        beq     0, other
        .reloc  ., R_PPC64_REL14_BRTAKEN, other
        beq+    0, 0
        .reloc  ., R_PPC64_REL14_BRNTAKEN, other
        beq-    0, 0
        .size   cb, .-cb
# jitlink-check: decode_operand(abs_br, 0) << 2 = abs_fn
# jitlink-check: decode_operand(abs_br + 4, 0) << 2 = abs_fn
# jitlink-check: (*{4}abs_br)[1:0] = 2
# jitlink-check: (*{4}(abs_br + 4))[1:0] = 3
# jitlink-check: decode_operand(abs_br + 8, 2) << 2 = abs14
        .globl  abs_br
abs_br:
        ba      abs_fn
        bla     abs_fn
        .reloc  ., R_PPC64_ADDR14_BRTAKEN, abs14
        bca+    12, 2, 0
        .size   abs_br, .-abs_br
.ifdef FAR
        beq     0, far_away
.endif
        blr
        .size   main, .-main

        .section .text.other,"ax",@progbits
        .globl  other
        .p2align 2
other:
        blr
