# Power10 code without a TOC: R_PPC64_PCREL34 (paddi/pla: the offset split
# over the prefix word's 18 bits and the suffix's 16), R_PPC64_GOT_PCREL34
# (pld from a GOT entry of its own), the R_PPC64_PCREL_OPT hint (skipped:
# the load through the GOT stays), and R_PPC64_REL24_NOTOC calls, which go
# through a stub that finds its address with bcl and loads the callee into
# r12 from the GOT, whether the callee is outside the graph or in it.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=powerpc64le-unknown-linux-gnu -mcpu=pwr10 -filetype=obj -o %t/elf_ppc_pcrel.o %s
# RUN: llvm-readelf -r %t/elf_ppc_pcrel.o | FileCheck --check-prefix=RELOCS %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -abs ext_fn=0x10200000 -abs ext_data=0x12345678 \
# RUN:     -check %s %t/elf_ppc_pcrel.o
#
# RELOCS-DAG: R_PPC64_PCREL34{{ }}
# RELOCS-DAG: R_PPC64_GOT_PCREL34{{ }}
# RELOCS-DAG: R_PPC64_PCREL_OPT{{ }}
# RELOCS-DAG: R_PPC64_REL24_NOTOC{{ }}

        .abiversion 2
        .text
        .globl  main
        .p2align 4
main:
# jitlink-check: (*{4}main)[17:0] = ((data - main) >> 16)[17:0]
# jitlink-check: *{2}(main + 4) = (data - main)[15:0]
# jitlink-check: (*{4}main)[31:18] = 0x184
        pla     3, data@pcrel
# The GOT entry is below the code: the negative offset's bits 33-16 and 15-0.
# jitlink-check: *{8}(got_addr(elf_ppc_pcrel.o, ext_data)) = ext_data
# jitlink-check: (*{4}got_load)[17:0] = ((got_addr(elf_ppc_pcrel.o, ext_data) - got_load) >> 16)[17:0]
# jitlink-check: *{2}(got_load + 4) = (got_addr(elf_ppc_pcrel.o, ext_data) - got_load)[15:0]
# jitlink-check: *{4}(got_load + 8) = 0x80840000
        .globl  got_load
got_load:
        pld     4, ext_data@got@pcrel
.Lpcrel0:
        .reloc .Lpcrel0-8, R_PPC64_PCREL_OPT, .-(.Lpcrel0-8)
        lwz     4, 0(4)
# jitlink-check: (*{4}call_ext)[25:2] = ((stub_addr(elf_ppc_pcrel.o, ext_fn) - call_ext) >> 2)[23:0]
# jitlink-check: (*{4}call_helper)[25:2] = ((stub_addr(elf_ppc_pcrel.o, helper) - call_helper) >> 2)[23:0]
        .globl  call_ext, call_helper
call_ext:
        bl      ext_fn@notoc
call_helper:
        bl      helper@notoc
        blr
        .size   main, .-main

# The stub: mflr r12; bcl 20, 31, .+4; mflr r11; mtlr r12;
# addis r12, r11, (entry - (stub + 8))@ha; ld r12, (entry - (stub + 8))@l(r12); mtctr r12; bctr.
# jitlink-check: *{4}(stub_addr(elf_ppc_pcrel.o, ext_fn)) = 0x7d8802a6
# jitlink-check: *{4}(stub_addr(elf_ppc_pcrel.o, ext_fn) + 4) = 0x429f0005
# jitlink-check: *{4}(stub_addr(elf_ppc_pcrel.o, ext_fn) + 8) = 0x7d6802a6
# jitlink-check: *{4}(stub_addr(elf_ppc_pcrel.o, ext_fn) + 12) = 0x7d8803a6
# jitlink-check: *{2}(stub_addr(elf_ppc_pcrel.o, ext_fn) + 18) = 0x3d8b
# jitlink-check: *{2}(stub_addr(elf_ppc_pcrel.o, ext_fn) + 16) = ((got_addr(elf_ppc_pcrel.o, ext_fn) - (stub_addr(elf_ppc_pcrel.o, ext_fn) + 8)) + 0x8000)[31:16]
# jitlink-check: *{2}(stub_addr(elf_ppc_pcrel.o, ext_fn) + 20) = (got_addr(elf_ppc_pcrel.o, ext_fn) - (stub_addr(elf_ppc_pcrel.o, ext_fn) + 8))[15:0]
# jitlink-check: *{2}(stub_addr(elf_ppc_pcrel.o, ext_fn) + 22) = 0xe98c
# jitlink-check: *{4}(stub_addr(elf_ppc_pcrel.o, ext_fn) + 24) = 0x7d8903a6
# jitlink-check: *{4}(stub_addr(elf_ppc_pcrel.o, ext_fn) + 28) = 0x4e800420
# jitlink-check: *{8}(got_addr(elf_ppc_pcrel.o, ext_fn)) = ext_fn
# jitlink-check: *{8}(got_addr(elf_ppc_pcrel.o, helper)) = helper
        .globl  helper
        .p2align 4
helper:
        blr

        .data
        .globl  data
data:
        .quad   7
