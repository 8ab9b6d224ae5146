# COFF x86-64 relocations: IMAGE_REL_AMD64_REL32 and REL32_1/2/4 (immediate
# bytes after the field), ADDR64, ADDR32NB (image-relative, from
# __ImageBase), SECREL (from the start of the target's section) and SECTION
# (the target's section number).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-pc-windows-msvc -filetype=obj -o %t/coff.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7f0000 \
# RUN:   -slab-page-size 4096 -abs __ImageBase=0x700000 -abs ext_fn=0x7f8000 \
# RUN:   -entry=main -check %s %t/coff.o

        .text
        .globl  main
        .p2align 4
main:
        retq

        .globl  callee
callee:
        retq

# jitlink-check: decode_operand(call_local, 0) = callee - next_pc(call_local)
# jitlink-check: decode_operand(call_ext, 0) = ext_fn - next_pc(call_ext)
        .globl  call_local
call_local:
        callq   callee
        .globl  call_ext
call_ext:
        callq   ext_fn

# jitlink-check: decode_operand(lea_rel32, 4) = (value + 8) - next_pc(lea_rel32)
        .globl  lea_rel32
lea_rel32:
        leaq    value+8(%rip), %rax

# REL32_1/2/4: the instruction ends 1, 2 or 4 bytes after the field
# (c6 05 d32 i8; 66 c7 05 d32 i16; c7 05 d32 i32).
# jitlink-check: *{4}(movb_rel32_1 + 2) = (value - (movb_rel32_1 + 7))[31:0]
# jitlink-check: *{4}(movw_rel32_2 + 3) = (value - (movw_rel32_2 + 9))[31:0]
# jitlink-check: *{4}(movl_rel32_4 + 2) = (value - (movl_rel32_4 + 10))[31:0]
        .globl  movb_rel32_1
movb_rel32_1:
        movb    $0x12, value(%rip)
        .globl  movw_rel32_2
movw_rel32_2:
        movw    $0x1234, value(%rip)
        .globl  movl_rel32_4
movl_rel32_4:
        movl    $0x12345678, value(%rip)

# decode_operand reads the same field of a test (f7 05 d32 i32: TEST32mi,
# displacement at MC operand 3, immediate at 5).
# jitlink-check: decode_operand(testl_rel32_4, 3) = value - next_pc(testl_rel32_4)
# jitlink-check: decode_operand(testl_rel32_4, 5) = 0x55aa
        .globl  testl_rel32_4
testl_rel32_4:
        testl   $0x55aa, value(%rip)

        .data
        .p2align 3
        .globl  value
value:
        .quad   0
        .quad   0

# jitlink-check: *{8}ptr64 = callee + 3
        .globl  ptr64
        .p2align 3
ptr64:
        .quad   callee + 3

# jitlink-check: *{4}rva = (callee - 0x700000)[31:0]
        .globl  rva
rva:
        .rva    callee

# ptr64 is 0x10 into .data. (llvm-jitlink's checker cannot parse "4 + section_addr(...)".)
# jitlink-check: *{4}secrel = (ptr64 + 4) - section_addr(coff.o, .data)
# jitlink-check: *{4}secrel = 0x14
        .globl  secrel
secrel:
        .secrel32 ptr64 + 4

# callee is in the first section, .text.
# jitlink-check: *{2}sec_index = 1
        .globl  sec_index
sec_index:
        .secidx callee
        .short  0
