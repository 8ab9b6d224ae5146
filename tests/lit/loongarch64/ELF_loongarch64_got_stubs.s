# R_LARCH_GOT_PC_HI20/LO12 reach a GOT entry holding the target's address
# (one per target, shared); b/bl (R_LARCH_B26) and call36 (R_LARCH_CALL36)
# to a symbol outside the graph go through a stub (pcalau12i $t8; ld.d $t8;
# jr $t8) that loads the same GOT entry.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=loongarch64-linux-gnu -filetype=obj -o %t/elf_la64_got.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 \
# RUN:     -slab-page-size 4096 -abs ext_fn=0x12345678 -abs ext_data=0x7ffe8000 \
# RUN:     -check %s %t/elf_la64_got.o

        .text
        .globl  main
        .p2align 2
main:
# jitlink-check: *{8}(got_addr(elf_la64_got.o, ext_data)) = ext_data
# jitlink-check: *{8}(got_addr(elf_la64_got.o, ext_fn)) = ext_fn
# jitlink-check: *{8}(got_addr(elf_la64_got.o, local_data)) = local_data
# jitlink-check: (*{4}got_load)[24:5] = (((got_addr(elf_la64_got.o, ext_data) + 0x800) >> 12) - (got_load >> 12))[19:0]
# jitlink-check: (*{4}(got_load + 4))[21:10] = got_addr(elf_la64_got.o, ext_data)[11:0]
# jitlink-check: (*{4}(got_load + 8))[24:5] = (((got_addr(elf_la64_got.o, local_data) + 0x800) >> 12) - ((got_load + 8) >> 12))[19:0]
# jitlink-check: (*{4}(got_load + 12))[21:10] = got_addr(elf_la64_got.o, local_data)[11:0]
        .globl  got_load
got_load:
        pcalau12i $a0, %got_pc_hi20(ext_data)
        ld.d    $a0, $a0, %got_pc_lo12(ext_data)
        pcalau12i $a1, %got_pc_hi20(local_data)
        ld.d    $a1, $a1, %got_pc_lo12(local_data)

# Both calls reach the same stub, which loads ext_fn's GOT entry.
# jitlink-check: (*{4}call_b26)[25:10] = ((stub_addr(elf_la64_got.o, ext_fn) - call_b26) >> 2)[15:0]
# jitlink-check: (*{4}call_b26)[9:0] = ((stub_addr(elf_la64_got.o, ext_fn) - call_b26) >> 18)[9:0]
# jitlink-check: (*{4}call_36)[24:5] = (((stub_addr(elf_la64_got.o, ext_fn) - call_36) + 0x20000) >> 18)[19:0]
# jitlink-check: (*{4}(call_36 + 4))[25:10] = ((stub_addr(elf_la64_got.o, ext_fn) - call_36) >> 2)[15:0]
# jitlink-check: *{4}(stub_addr(elf_la64_got.o, ext_fn)) = ((((((got_addr(elf_la64_got.o, ext_fn) + 0x800) >> 12) - (stub_addr(elf_la64_got.o, ext_fn) >> 12))[19:0]) << 5) + 0x1a000014)
# jitlink-check: *{4}(stub_addr(elf_la64_got.o, ext_fn) + 4) = ((got_addr(elf_la64_got.o, ext_fn)[11:0] << 10) + 0x28c00294)
# jitlink-check: *{4}(stub_addr(elf_la64_got.o, ext_fn) + 8) = 0x4c000280
        .globl  call_b26, call_36
call_b26:
        bl      ext_fn
call_36:
        pcaddu18i $ra, %call36(ext_fn)
        jirl    $ra, $ra, 0
        ret
        .size   main, .-main

        .data
        .globl  local_data
local_data:
        .quad   42
