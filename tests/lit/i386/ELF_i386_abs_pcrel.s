# Absolute and PC-relative data and branches: R_386_32, R_386_PC32, R_386_16,
# R_386_PC16, R_386_PLT32 to a defined function. Addends are implicit
# (SHT_REL): they come from the bytes being relocated.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=i386-unknown-linux-gnu -filetype=obj -o %t/elf_i386_abs_pcrel.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x1000 \
# RUN:     -slab-page-size 4096 -abs external_data=0x12345678 -check %s %t/elf_i386_abs_pcrel.o

        .text
        .globl  main
        .p2align 4
main:
# jitlink-check: *{4}(call_pc32 + 1) = func - (call_pc32 + 5)
        .globl  call_pc32
call_pc32:
        calll   func
# jitlink-check: *{4}(call_plt + 1) = func - (call_plt + 5)
        .globl  call_plt
call_plt:
        calll   func@PLT
        retl
        .globl  func
func:
        retl

        .data
        .p2align 2
# jitlink-check: *{4}ptr32 = named_data + 0x10
        .globl  ptr32
ptr32:
        .long   named_data + 0x10
# jitlink-check: *{4}ptr32_ext = 0x12345678
        .globl  ptr32_ext
ptr32_ext:
        .long   external_data
# jitlink-check: *{4}pc32 = (func - pc32)[31:0]
        .globl  pc32
pc32:
        .long   func - .
# jitlink-check: *{2}ptr16 = named_data + 2
        .globl  ptr16
ptr16:
        .short  named_data + 2
# jitlink-check: *{2}pc16 = (func - pc16)[15:0]
        .globl  pc16
pc16:
        .short  func - .
        .globl  named_data
named_data:
        .long   0
