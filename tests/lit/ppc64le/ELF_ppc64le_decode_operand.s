# decode_operand and next_pc in -check expressions for ppc64le, with the
# operands LLVM's PPC disassembler lists (llvm-jitlink-22 reads the same):
# addis/addi (rt, ra, si) and lis/li (rt, si) signed; ori (ra, rs, ui); D-form
# loads and stores (rt, d, ra) with d unsigned, their update forms with the
# written-back base first; DS-form ld/std (rt, d, ra) with d signed in bytes;
# bl/bla the signed word offset; bc (bo, cr bit, word offset). Power10's
# prefixed instructions: ELF_ppc64le_decode_prefixed.s. Each label has a
# size: llvm-jitlink decodes within the symbol's bytes.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=powerpc64le-unknown-linux-gnu -filetype=obj -o %t/decode.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -abs ext_fn=0x10200000 -abs ext_data=0x12345678 -abs abs_lo=0x1238 \
# RUN:     -abs abs_br=0x40 -check %s %t/decode.o

        .abiversion 2
        .text
        .globl  main
        .p2align 4
        .type   main,@function
# R_PPC64_REL16_HA/LO: .TOC. from the global entry point.
# jitlink-check: decode_operand(main, 2) & 0xffff = (((__TOC__ - main) + 0x8000) >> 16) & 0xffff
# jitlink-check: decode_operand(main + 4, 2) & 0xffff = (__TOC__ - main) & 0xffff
main:
        addis   2, 12, .TOC.-main@ha
        addi    2, 2, .TOC.-main@l
# R_PPC64_TOC16_HA and _LO_DS through the .toc entry for ext_data.
# jitlink-check: decode_operand(toc_load, 2) & 0xffff = \
# jitlink-check:     (((got_addr(decode.o, ext_data) - __TOC__) + 0x8000) >> 16) & 0xffff
# jitlink-check: decode_operand(toc_load + 4, 1) & 0xffff = (got_addr(decode.o, ext_data) - __TOC__) & 0xffff
# jitlink-check: *{8}(got_addr(decode.o, ext_data)) = ext_data
        .globl  toc_load
toc_load:
        addis   3, 2, .LC0@toc@ha
        ld      3, .LC0@toc@l(3)
        .size   toc_load, .-toc_load
# D-form (lwz: d unsigned) and update forms; store with the same field.
# jitlink-check: decode_operand(dform, 1) = (var - __TOC__) & 0xffff
# jitlink-check: decode_operand(dform + 4, 1) = (var - __TOC__) & 0xffff
# jitlink-check: decode_operand(dform + 8, 2) = (var - __TOC__) & 0xffff
# jitlink-check: decode_operand(dform + 12, 2) = (var - __TOC__) & 0xffff
# jitlink-check: decode_operand(dform + 16, 1) = 0xfff8
# jitlink-check: decode_operand(dform + 20, 2) + 32 = 0
# jitlink-check: decode_operand(dform + 24, 1) + 8 = 0
        .globl  dform
dform:
        lwz     4, var@toc@l(2)
        stw     4, var@toc@l(2)
        lwzu    4, var@toc@l(2)
        stwu    4, var@toc@l(2)
        lfd     1, -8(3)
        stdu    1, -32(1)
        ld      5, -8(3)
        .size   dform, .-dform
# R_PPC64_ADDR16_HA/LO and ADDR16_HI on lis/ori: absolute halves.
# jitlink-check: decode_operand(abs_seq, 1) = 0x1234
# jitlink-check: decode_operand(abs_seq + 4, 2) = 0x5678
# jitlink-check: decode_operand(abs_seq + 8, 2) = 0x1238
        .globl  abs_seq
abs_seq:
        lis     6, ext_data@h
        ori     6, 6, ext_data@l
        addi    7, 7, abs_lo@l
        .size   abs_seq, .-abs_seq
# bl to a stub (R_PPC64_REL24 leaving the graph) and to a local function;
# bla to an absolute address (R_PPC64_ADDR24 is not linked: a bc with
# R_PPC64_ADDR14 instead).
# jitlink-check: decode_operand(call_ext, 0) = (stub_addr(decode.o, ext_fn) - call_ext) >> 2
# jitlink-check: decode_operand(call_local, 0) = (helper - call_local) >> 2
# jitlink-check: decode_operand(abs_branch, 0) = 12
# jitlink-check: decode_operand(abs_branch, 2) = abs_br >> 2
        .globl  call_ext, call_local, abs_branch
call_ext:
        bl      ext_fn
        nop
        .size   call_ext, .-call_ext
call_local:
        bl      helper
        .size   call_local, .-call_local
abs_branch:
        bca     12, 2, abs_br
        .size   abs_branch, .-abs_branch
        blr
        .size   main, .-main

        .globl  helper
        .p2align 4
helper:
        blr

        .data
        .p2align 3
        .globl  var
var:
        .quad   0

        .section .toc,"aw",@progbits
.LC0:
        .tc ext_data[TC],ext_data
