# Big-endian PowerPC 64 (powerpc64-unknown-linux-gnu, ELFv2): instructions
# are words in the data's byte order, so each D-form immediate (the word's
# low half) sits 2 bytes into its word, where the relocation points. One
# object covers what byte order changes: R_PPC64_REL16_HA/LO (.TOC. - P),
# TOC16_HA/LO_DS (a DS-form ld; DQ-forms: ../ppc64le/ELF_ppc64le_ds_alignment.s);
# ADDR16_HA/LO/HIGHER/HIGHEST; REL24 to a local entry and, through the
# TOC-saving stub (edges 2 bytes into its words), to an external with the
# nop after it made ld r2, 24(r1); Power10 PCREL34 and REL24_NOTOC through
# the bcl stub (pla read raw: llvm-jitlink-22's checker decodes
# no Power9/10 instruction); data ADDR64/REL32 read with *{N} in the
# target's byte order. The relocated .text is shown raw: big-endian words.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=powerpc64-unknown-linux-gnu -mcpu=pwr10 -filetype=obj -o %t/be.o %s
# RUN: llvm-readelf -h %t/be.o | FileCheck --check-prefix=ELF %s
# ELF: Data: 2's complement, big endian
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -abs ext_fn=0x10200000 -abs ext_data=0x12345678 \
# RUN:     -check %s -show-relocated-section-contents %t/be.o | FileCheck %s
# .text at 0x10002000: addis r2, r12, 0 (3c4c0000; .TOC. - main = 0x6000:
# @ha 0); addi r2, r2, 0x6000 (38426000).
# CHECK: .text content:
# CHECK-NEXT: 0x10002000: 3c 4c 00 00 38 42 60 00

        .abiversion 2
        .text
        .globl  main
        .p2align 4
        .type   main,@function
main:
# jitlink-check: decode_operand(main, 2) = ((__TOC__ - main) + 0x8000)[31:16]
# jitlink-check: decode_operand(main + 4, 2) = (__TOC__ - main)[15:0]
.Lgep0:
        addis   2, 12, .TOC.-.Lgep0@ha
        addi    2, 2, .TOC.-.Lgep0@l
.Llep0:
        .localentry main, .Llep0-.Lgep0
        .size   main, .-main
# jitlink-check: decode_operand(toc_ld, 2) = ((value - __TOC__) + 0x8000)[31:16]
# jitlink-check: decode_operand(toc_ld + 4, 1) & 0xffff = (value - __TOC__)[15:0]
        .globl  toc_ld
toc_ld:
        addis   3, 2, value@toc@ha
        ld      3, value@toc@l(3)
        .size   toc_ld, .-toc_ld
# jitlink-check: decode_operand(abs16, 1) = (ext_data + 0x8000)[31:16]
# jitlink-check: decode_operand(abs16 + 4, 2) = ext_data[15:0]
# jitlink-check: decode_operand(abs16 + 8, 1) = ext_fn[47:32]
# jitlink-check: decode_operand(abs16 + 12, 1) = ext_fn[63:48]
        .globl  abs16
abs16:
        lis     5, ext_data@ha
        addi    5, 5, ext_data@l
        lis     6, ext_fn@higher
        lis     7, ext_fn@highest
        .size   abs16, .-abs16
# jitlink-check: decode_operand(call_local, 0) = (((local + 8) - call_local) >> 2)[23:0]
# jitlink-check: *{4}(call_local + 4) = 0x60000000
# jitlink-check: decode_operand(call_ext, 0) = ((stub_addr(be.o, ext_fn) - call_ext) >> 2)[23:0]
# jitlink-check: *{4}(call_ext + 4) = 0xe8410018
        .globl  call_local, call_ext
call_local:
        bl      local
        nop
        .size   call_local, .-call_local
call_ext:
        bl      ext_fn
        nop
        .size   call_ext, .-call_ext
# The TOC-saving stub: std r2, 24(r1); addis r12, r2, entry@toc@ha;
# ld r12, entry@toc@l(r12); mtctr r12; bctr.
# jitlink-check: *{4}(stub_addr(be.o, ext_fn)) = 0xf8410018
# jitlink-check: *{2}(stub_addr(be.o, ext_fn) + 4) = 0x3d82
# jitlink-check: *{2}(stub_addr(be.o, ext_fn) + 6) = ((got_addr(be.o, ext_fn) - __TOC__) + 0x8000)[31:16]
# jitlink-check: *{2}(stub_addr(be.o, ext_fn) + 8) = 0xe98c
# jitlink-check: *{2}(stub_addr(be.o, ext_fn) + 10) = (got_addr(be.o, ext_fn) - __TOC__)[15:0]
# jitlink-check: *{4}(stub_addr(be.o, ext_fn) + 16) = 0x4e800420
# jitlink-check: *{8}(got_addr(be.o, ext_fn)) = ext_fn

# Power10: pla from the prefix word's 18 bits and the suffix's 16; a call
# without a TOC through the bcl stub, whose addis/ld reach the GOT entry
# from the stub + 8.
# jitlink-check: (*{4}pcrel)[17:0] = ((data - pcrel) >> 16)[17:0]
# jitlink-check: *{2}(pcrel + 6) = (data - pcrel)[15:0]
# jitlink-check: decode_operand(call_notoc, 0) = ((stub_addr(be.o, helper) - call_notoc) >> 2)[23:0]
# jitlink-check: *{4}(stub_addr(be.o, helper) + 4) = 0x429f0005
# jitlink-check: *{2}(stub_addr(be.o, helper) + 16) = 0x3d8b
# jitlink-check: *{2}(stub_addr(be.o, helper) + 18) = ((got_addr(be.o, helper) - (stub_addr(be.o, helper) + 8)) + 0x8000)[31:16]
# jitlink-check: *{2}(stub_addr(be.o, helper) + 22) = (got_addr(be.o, helper) - (stub_addr(be.o, helper) + 8))[15:0]
# jitlink-check: *{8}(got_addr(be.o, helper)) = helper
        .globl  pcrel, call_notoc
        .p2align 4
pcrel:
        pla     3, data@pcrel
        .size   pcrel, .-pcrel
call_notoc:
        bl      helper@notoc
        .size   call_notoc, .-call_notoc
        blr

        .globl  local, helper
        .p2align 4
local:
.Lgep1:
        addis   2, 12, .TOC.-.Lgep1@ha
        addi    2, 2, .TOC.-.Lgep1@l
.Llep1:
        .localentry local, .Llep1-.Lgep1
        blr
helper:
        blr

# jitlink-check: *{8}data = ext_fn
# jitlink-check: *{4}(data + 8) = (local - (data + 8))[31:0]
        .data
        .globl  data, value
        .p2align 4
data:
        .quad   ext_fn
        .long   local - .
        .long   0
value:
        .quad   7
