# TOC-relative code and calls: R_PPC64_REL16_HA/LO set r2 from r12 in a
# global entry (.TOC. - P); R_PPC64_TOC16 with its HA/HI/LO/DS/LO_DS forms
# address data from r2; a .toc entry naming a symbol outside the graph is
# that symbol's GOT entry; R_PPC64_REL24 enters a local function past its
# TOC set-up (st_other's local entry offset) and leaves the graph through a
# stub that saves r2, the nop after the call becoming ld r2, 24(r1).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=powerpc64le-linux-gnu -filetype=obj -o %t/elf_ppc_toc.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -abs ext_fn=0x10200000 -abs ext_data=0x12345678 \
# RUN:     -check %s %t/elf_ppc_toc.o

        .abiversion 2
        .text
        .globl  main
        .p2align 4
        .type   main,@function
main:
# jitlink-check: *{2}main = ((__TOC__ - main) + 0x8000)[31:16]
# jitlink-check: *{2}(main + 4) = (__TOC__ - main)[15:0]
.Lgep0:
        addis   2, 12, .TOC.-.Lgep0@ha
        addi    2, 2, .TOC.-.Lgep0@l
.Llep0:
        .localentry main, .Llep0-.Lgep0
        mflr    0
# jitlink-check: (*{4}call_local)[25:2] = (((local + 8) - call_local) >> 2)[23:0]
# jitlink-check: *{4}(call_local + 4) = 0x60000000
# jitlink-check: (*{4}call_ext)[25:2] = ((stub_addr(elf_ppc_toc.o, ext_fn) - call_ext) >> 2)[23:0]
# jitlink-check: *{4}(call_ext + 4) = 0xe8410018
        .globl  call_local, call_ext
call_local:
        bl      local
        nop
call_ext:
        bl      ext_fn
        nop
# The stub: std r2, 24(r1); addis r12, r2, entry@toc@ha; ld r12, entry@toc@l(r12); mtctr r12; bctr.
# jitlink-check: *{4}(stub_addr(elf_ppc_toc.o, ext_fn)) = 0xf8410018
# jitlink-check: *{2}(stub_addr(elf_ppc_toc.o, ext_fn) + 4) = ((got_addr(elf_ppc_toc.o, ext_fn) - __TOC__) + 0x8000)[31:16]
# jitlink-check: *{2}(stub_addr(elf_ppc_toc.o, ext_fn) + 8) = (got_addr(elf_ppc_toc.o, ext_fn) - __TOC__)[15:0]
# jitlink-check: *{4}(stub_addr(elf_ppc_toc.o, ext_fn) + 12) = 0x7d8903a6
# jitlink-check: *{8}(got_addr(elf_ppc_toc.o, ext_fn)) = ext_fn

# jitlink-check: *{2}toc_ha = ((data - __TOC__) + 0x8000)[31:16]
# jitlink-check: *{2}(toc_ha + 4) = (data - __TOC__)[15:0]
# jitlink-check: *{2}(toc_ha + 8) = (data - __TOC__)[31:16]
# jitlink-check: *{2}(toc_ha + 12) = (data - __TOC__)[15:0]
# jitlink-check: *{2}(toc_ha + 16) = (data - __TOC__)[15:0]
        .globl  toc_ha
toc_ha:
        addis   3, 2, data@toc@ha
        addi    3, 3, data@toc@l
        addis   3, 2, data@toc@h
        addi    3, 2, data@toc
        ld      3, data@toc(2)
# A .toc entry for ext_data: the GOT entry the DS load reaches.
# jitlink-check: *{8}(got_addr(elf_ppc_toc.o, ext_data)) = ext_data
# jitlink-check: *{2}toc_ld = ((got_addr(elf_ppc_toc.o, ext_data) - __TOC__) + 0x8000)[31:16]
# jitlink-check: *{2}(toc_ld + 4) = (got_addr(elf_ppc_toc.o, ext_data) - __TOC__)[15:0]
        .globl  toc_ld
toc_ld:
        addis   4, 2, .LC0@toc@ha
        ld      4, .LC0@toc@l(4)
        blr
        .size   main, .-main

        .globl  local
        .type   local,@function
local:
.Lgep1:
        addis   2, 12, .TOC.-.Lgep1@ha
        addi    2, 2, .TOC.-.Lgep1@l
.Llep1:
        .localentry local, .Llep1-.Lgep1
        blr
        .size   local, .-local

        .section .toc,"aw",@progbits
.LC0:
        .tc     ext_data[TC], ext_data

        .data
        .p2align 3
        .globl  data
data:
        .quad   7
