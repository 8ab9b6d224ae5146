# General-dynamic TLS, the one model JITLink links on ppc64: the
# @got@tlsgd@ha/@l pair (R_PPC64_GOT_TLSGD16_HA/_LO) and Power10's
# @got@tlsgd@pcrel (R_PPC64_GOT_TLSGD_PCREL34) reach the variable's 16-byte
# $__TLSINFO entry {0, &x}, one per variable, which __tls_get_addr is handed;
# R_PPC64_TLSGD, the marker on the call, adds nothing, and the call links as
# any call leaving the graph (a TOC-saving stub, its nop made ld r2, 24(r1)).
# The graph dumps after fixups equal llvm-jitlink-22's.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=powerpc64le-unknown-linux-gnu -mcpu=pwr10 -filetype=obj -o %t/tls_gd.o %s
# RUN: llvm-readelf -r %t/tls_gd.o | FileCheck --check-prefix=RELOCS %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -abs __tls_get_addr=0x10200000 -check %s %t/tls_gd.o
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -abs __tls_get_addr=0x10200000 -show-graphs='.*' %t/tls_gd.o > %t/linklab.dump
# RUN: llvm-jitlink -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -abs __tls_get_addr=0x10200000 -show-graphs='.*' %t/tls_gd.o > %t/llvm.dump
# RUN: python3 %S/Inputs/canon_dump.py < %t/linklab.dump > %t/linklab.canon
# RUN: python3 %S/Inputs/canon_dump.py < %t/llvm.dump > %t/llvm.canon
# RUN: diff %t/llvm.canon %t/linklab.canon
# RUN: FileCheck --check-prefix=DUMP %s < %t/linklab.dump
#
# RELOCS: R_PPC64_GOT_TLSGD16_HA {{.*}} x + 0
# RELOCS: R_PPC64_GOT_TLSGD16_LO {{.*}} x + 0
# RELOCS: R_PPC64_TLSGD {{.*}} x + 0
# RELOCS: R_PPC64_REL24 {{.*}} __tls_get_addr + 0
# RELOCS: R_PPC64_GOT_TLSGD_PCREL34 {{.*}} x + 0
# DUMP: section $__TLSINFO:
# DUMP: size = 0x00000010, align = 8
# DUMP: (block + 0x00000008), addend = +0x00000000, kind = Pointer64, target = x
# DUMP: kind = TOCDelta16HA, target = addressable@
# DUMP: kind = TOCDelta16LO, target = addressable@
# DUMP: kind = CallBranchDeltaRestoreTOC, target = addressable@
# DUMP: kind = Delta34, target = addressable@

        .abiversion 2
        .text
        .globl  main
        .p2align 4
        .type   main,@function
main:
.Lgep:
        addis   2, 12, .TOC.-.Lgep@ha
        addi    2, 2, .TOC.-.Lgep@l
.Llep:
        .localentry main, .Llep-.Lgep
        mflr    0
        std     0, 16(1)
        stdu    1, -32(1)
# x's entry: {0, x}, reached from the TOC pointer and PC-relatively.
# jitlink-check: *{8}(section_addr(tls_gd.o, $__TLSINFO)) = 0
# jitlink-check: *{8}(section_addr(tls_gd.o, $__TLSINFO) + 8) = x
# jitlink-check: *{2}gd_ha = ((section_addr(tls_gd.o, $__TLSINFO) - __TOC__ + 0x8000) >> 16)[15:0]
# jitlink-check: *{2}(gd_ha + 2) = 0x3c62
# jitlink-check: *{2}(gd_ha + 4) = (section_addr(tls_gd.o, $__TLSINFO) - __TOC__)[15:0]
# jitlink-check: *{2}(gd_ha + 6) = 0x3863
# jitlink-check: *{4}(gd_ha + 12) = 0xe8410018
        .globl  gd_ha
gd_ha:
        addis   3, 2, x@got@tlsgd@ha
        addi    3, 3, x@got@tlsgd@l
        bl      __tls_get_addr(x@tlsgd)
        nop
# jitlink-check: (*{4}gd_pcrel)[17:0] = ((section_addr(tls_gd.o, $__TLSINFO) - gd_pcrel) >> 16)[17:0]
# jitlink-check: *{2}(gd_pcrel + 4) = (section_addr(tls_gd.o, $__TLSINFO) - gd_pcrel)[15:0]
        .globl  gd_pcrel
gd_pcrel:
        pla     3, x@got@tlsgd@pcrel
        lwz     3, 0(3)
        addi    1, 1, 32
        ld      0, 16(1)
        mtlr    0
        blr
        .size   main, .-main

        .section .tbss,"awT",@nobits
        .globl  x
        .p2align 2
x:
        .long   0
        .size   x, 4
