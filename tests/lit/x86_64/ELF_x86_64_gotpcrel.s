# RequestGOTAndTransformToDelta32 from R_X86_64_GOTPCREL: a plain GOTPCREL
# (in data, or on an instruction an assembler did not mark GOTPCRELX) always
# gets a GOT entry holding the target's address, and is never relaxed: only
# GOTPCRELX promises the instruction is one the linker may rewrite.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -x86-relax-relocations=false -filetype=obj -o %t/gotpcrel.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -abs ext_data=0x7fff00001000 -check %s %t/gotpcrel.o

        .text
        .globl  main
        .type   main,@function
main:
        retq
        .size   main, .-main

# jitlink-check: decode_operand(test_mov, 4) = got_addr(gotpcrel.o, named_data) - next_pc(test_mov)
        .globl  test_mov
        .type   test_mov,@function
test_mov:
        movq    named_data@GOTPCREL(%rip), %rax
        retq
        .size   test_mov, .-test_mov

        .data
        .globl  named_data
named_data:
        .quad   0
        .size   named_data, 8

# jitlink-check: *{8}got_addr(gotpcrel.o, named_data) = named_data
# jitlink-check: *{8}got_addr(gotpcrel.o, ext_data) = ext_data
# jitlink-check: *{4}test_gotpcrel = (got_addr(gotpcrel.o, named_data) - test_gotpcrel)[31:0]
# jitlink-check: *{4}(test_gotpcrel + 4) = ((got_addr(gotpcrel.o, ext_data) + 8) - (test_gotpcrel + 4))[31:0]
        .globl  test_gotpcrel
test_gotpcrel:
        .long   named_data@GOTPCREL
        .long   ext_data@GOTPCREL + 8
        .size   test_gotpcrel, 8

# RequestGOTAndTransformToDelta64 from R_X86_64_GOTPCREL64 (large code
# model; llvm-mc has no @GOTPCREL64 syntax, hence .reloc): G + A - P.
# jitlink-check: *{8}test_gotpcrel64 = got_addr(gotpcrel.o, named_data) - test_gotpcrel64
# jitlink-check: *{8}(test_gotpcrel64 + 8) = (got_addr(gotpcrel.o, ext_data) + 0x10) - (test_gotpcrel64 + 8)
        .globl  test_gotpcrel64
        .p2align 3
test_gotpcrel64:
        .reloc  ., R_X86_64_GOTPCREL64, named_data
        .quad   0
        .reloc  ., R_X86_64_GOTPCREL64, ext_data+0x10
        .quad   0
        .size   test_gotpcrel64, 16

# The GOT is one section per object; its address is that of its first entry
# or lower, and every entry is 8-byte aligned.
# jitlink-check: got_addr(gotpcrel.o, named_data)[2:0] = 0
# jitlink-check: (got_addr(gotpcrel.o, named_data) - section_addr(gotpcrel.o, $__GOT))[63:63] = 0
