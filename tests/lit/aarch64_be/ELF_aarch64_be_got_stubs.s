# GOT entries and stubs on aarch64_be: an external call goes through a stub
# (adrp x16; ldr x16; br x16) reaching a GOT entry; an adrp/ldr pair loads an
# external's address from its GOT entry. GOT entries are data, stored
# big-endian; the stub's and the caller's instructions stay little-endian.
# Raw bytes are checked against values worked out by hand; llvm-jitlink-22
# lays the source assembled little-endian out at the same addresses (with
# its GOT entries in hash order) and writes the same instruction bytes.
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 refuses big-endian AArch64 objects ("Object is not a relocatable ELF file")
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64_be-unknown-linux-gnu -filetype=obj -o %t/got.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -abs ext_fn=0x123456789a -abs ext_data=0xfedcba9876543210 \
# RUN:   -check %s -show-relocated-section-contents %t/got.o | FileCheck %s
#
# .text: bl to the stub 0x10 bytes on (94000004); adrp x0 (same page) and
# ldr x0, [x0, #0x28] (imm12 5: f9401400) load ext_data's GOT entry; ret.
# CHECK:      .text content:
# CHECK-NEXT: 0x10000: 04 00 00 94 00 00 00 90 00 14 40 f9 c0 03 5f d6
# The stub: adrp x16 (same page); ldr x16, [x16, #0x20] (imm12 4: f9401210); br x16.
# CHECK:      $__STUBS content:
# CHECK-NEXT: 0x10010: 10 00 00 90 10 12 40 f9 00 02 1f d6
# The GOT: ext_fn's entry, then ext_data's, each big-endian.
# CHECK:      $__GOT content:
# CHECK-NEXT: 0x10020: 00 00 00 12 34 56 78 9a fe dc ba 98 76 54 32 10

        .text
        .globl  main
        .p2align 2
        .type   main,@function
# jitlink-check: decode_operand(main, 0) = (stub_addr(got.o, ext_fn) - main)[27:2]
# jitlink-check: *{8}(got_addr(got.o, ext_fn)) = ext_fn
# jitlink-check: *{8}(got_addr(got.o, ext_data)) = ext_data
main:
        bl      ext_fn
# jitlink-check: decode_operand(load_page, 1) = got_addr(got.o, ext_data)[32:12] - load_page[32:12]
# jitlink-check: decode_operand(load_entry, 2) = got_addr(got.o, ext_data)[11:3]
        .globl  load_page, load_entry
load_page:
        adrp    x0, :got:ext_data
load_entry:
        ldr     x0, [x0, :got_lo12:ext_data]
        ret
        .size   main, .-main
