# Local-exec and initial-exec TLS, linked as a static linker links them:
# r13 points 0x7000 past the start of the TLS block, so TPREL(x) = x's offset
# in the block - 0x7000. Local-exec writes TPREL into the instruction
# (R_PPC64_TPREL16, _LO/_HI/_HA, _DS/_LO_DS, _HIGH[A]/_HIGHER[A]/_HIGHEST[A],
# TPREL64 in data, Power10's TPREL34); initial-exec loads it from a GOT entry
# (R_PPC64_GOT_TPREL16_HA/_LO_DS/_HI/_DS, GOT_TPREL_PCREL34), one per
# variable, and the R_PPC64_TLS marker on the `add` of r13 leaves it as is.
# The block: .tdata {a: 4 bytes}, then .tbss {b: 8 bytes} at offset 8:
# TPREL(a) = -0x7000, TPREL(b) = -0x6ff8.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 refuses these ("Unsupported ppc64 relocation type R_PPC64_TPREL16_HA", "Local-exec TLS model is not supported" for TPREL34).
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=powerpc64le-unknown-linux-gnu -mcpu=pwr10 -filetype=obj -o %t/le_ie.o %s
# RUN: llvm-readelf -r %t/le_ie.o | FileCheck --check-prefix=RELOCS %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -check %s %t/le_ie.o
# clang's default (PIE) code for TLS: local-exec for the variables it
# defines, initial-exec for the one another object defines.
# RUN: clang --target=powerpc64le-linux-gnu -O2 -c %S/Inputs/tls.c -o %t/c.o
# RUN: clang --target=powerpc64le-linux-gnu -mcpu=pwr10 -O2 -c %S/Inputs/tls.c -o %t/cp10.o
# RUN: clang --target=powerpc64le-linux-gnu -O2 -c %S/Inputs/tls_def.c -o %t/def.o
# RUN: llvm-readelf -r %t/c.o %t/cp10.o | FileCheck --check-prefix=CRELOCS %s
# RUN: linklab -noexec -no-process-syms %t/c.o %t/def.o
# RUN: linklab -noexec -no-process-syms %t/cp10.o %t/def.o
# CRELOCS-DAG: R_PPC64_TPREL16_HA {{.*}} counter + 0
# CRELOCS-DAG: R_PPC64_GOT_TPREL16_HA {{.*}} shared + 0
# CRELOCS-DAG: R_PPC64_TPREL34 {{.*}} counter + 0
# CRELOCS-DAG: R_PPC64_GOT_TPREL_PCREL34 {{.*}} shared + 0
# RUN: llvm-mc -triple=powerpc64le-unknown-linux-gnu -filetype=obj --defsym FAR=1 -o %t/far.o %s
# RUN: not linklab -noexec -no-process-syms %t/far.o 2>&1 | FileCheck --check-prefix=FAR %s
# FAR: is out of range of TPRel16 fixup
# FAR-SAME: TPRel16 against far: value 0x9000 out of range [-0x8000, 0x7fff]
# RUN: llvm-mc -triple=powerpc64le-unknown-linux-gnu -filetype=obj --defsym NOTTLS=1 -o %t/nottls.o %s
# RUN: not linklab -noexec -no-process-syms %t/nottls.o 2>&1 | FileCheck --check-prefix=NOTTLS %s
# NOTTLS: nottls.o: .text+0x{{[0-9a-f]+}}: TPRel16HA against .data+0x0: TLS reference to address 0x{{[0-9a-f]+}}, which is in no linked .tdata/.tbss block
#
# RELOCS-DAG: R_PPC64_TPREL16_HA {{.*}} a + 0
# RELOCS-DAG: R_PPC64_TPREL16_LO {{.*}} a + 0
# RELOCS-DAG: R_PPC64_TPREL16 {{.*}} b + 0
# RELOCS-DAG: R_PPC64_TPREL16_DS {{.*}} b + 0
# RELOCS-DAG: R_PPC64_TPREL16_HIGHESTA {{.*}} a + 0
# RELOCS-DAG: R_PPC64_GOT_TPREL16_HA {{.*}} b + 0
# RELOCS-DAG: R_PPC64_GOT_TPREL16_LO_DS {{.*}} b + 0
# RELOCS-DAG: R_PPC64_TLS {{.*}} b + 0
# RELOCS-DAG: R_PPC64_TPREL34 {{.*}} a + 0
# RELOCS-DAG: R_PPC64_GOT_TPREL_PCREL34 {{.*}} b + 0
# RELOCS-DAG: R_PPC64_TPREL64 {{.*}} a + 0

        .abiversion 2
        .text
        .globl  main
        .p2align 4
main:
        addis   2, 12, .TOC.-main@ha
        addi    2, 2, .TOC.-main@l
# Local-exec: @ha of -0x7000 is 0, @l is 0x9000 (signed -0x7000).
# jitlink-check: decode_operand(le, 2) = 0
# jitlink-check: decode_operand(le + 4, 2) + 0x7000 = 0
# jitlink-check: decode_operand(le + 8, 1) = 0x9008
# jitlink-check: decode_operand(le + 12, 1) + 0x6ff8 = 0
        .globl  le
le:
        addis   3, 13, a@tprel@ha
        addi    3, 3, a@tprel@l
        lwz     4, b@tprel(13)
        ld      5, b@tprel(13)
        .size   le, .-le
# The 64-bit pieces of TPREL(a) = 0xffff_ffff_ffff_9000.
# jitlink-check: decode_operand(le64, 1) = 0
# jitlink-check: decode_operand(le64 + 4, 2) = 0
# jitlink-check: decode_operand(le64 + 8, 1) + 1 = 0
# jitlink-check: decode_operand(le64 + 12, 2) = 0xffff
# jitlink-check: decode_operand(le64 + 16, 2) + 1 = 0
# jitlink-check: decode_operand(le64 + 20, 2) = 0
        .globl  le64
le64:
        lis     6, a@tprel@highesta
        ori     6, 6, a@tprel@highera
        lis     7, a@tprel@highest
        ori     7, 7, a@tprel@higher
        addis   8, 13, a@tprel@high
        addis   8, 13, a@tprel@higha
        .size   le64, .-le64
# Initial-exec: b's GOT entry holds TPREL(b), reached from the TOC pointer.
# jitlink-check: (*{8}(got_addr(le_ie.o, b))) + 0x6ff8 = 0
# jitlink-check: decode_operand(ie, 2) = ((got_addr(le_ie.o, b) - __TOC__ + 0x8000) >> 16)[15:0]
# jitlink-check: decode_operand(ie + 4, 1)[15:0] = (got_addr(le_ie.o, b) - __TOC__)[15:0]
# jitlink-check: *{4}(ie + 8) = 0x7c636a14
        .globl  ie
ie:
        addis   3, 2, b@got@tprel@ha
        ld      3, b@got@tprel@l(3)
        add     3, 3, b@tls
        .size   ie, .-ie
# Power10: paddi from r13 and pld from the same GOT entry, PC-relative.
# jitlink-check: decode_operand(p10_le, 2) + 0x7000 = 0
# jitlink-check: decode_operand(p10_ie, 1) = got_addr(le_ie.o, b) - p10_ie
        .globl  p10_le, p10_ie
        .p2align 4 # a prefixed instruction may not cross 64 bytes: no nop after the label
p10_le:
        paddi   3, 13, a@tprel, 0
        .size   p10_le, .-p10_le
p10_ie:
        pld     3, b@got@tprel@pcrel
        .size   p10_ie, .-p10_ie
.ifdef FAR
        lwz     3, far@tprel(13)
.endif
.ifdef NOTTLS
        addis   3, 13, plain@tprel@ha
.endif
        blr
        .size   main, .-main

# jitlink-check: (*{8}tp64) + 0x7000 = 0
        .data
        .p2align 3
        .globl  tp64
tp64:
        .quad   a@tprel
plain:
        .quad   0

        .section .tdata,"awT",@progbits
        .globl  a
        .p2align 2
a:
        .long   5
        .section .tbss,"awT",@nobits
        .globl  b
        .p2align 3
b:
        .quad   0
.ifdef FAR
        .zero   0xfff0
far:
        .long   0
.endif
