# Position-independent data access through the GOT: R_386_GOTPC loads the
# GOT's address (_GLOBAL_OFFSET_TABLE_, defined at the GOT's start),
# R_386_GOT32 / R_386_GOT32X address a GOT entry and R_386_GOTOFF a symbol,
# both relative to that start. Each GOT entry holds its target's address.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=i386-unknown-linux-gnu -filetype=obj -o %t/elf_i386_got.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:     -slab-page-size 4096 -abs external_data=0x12345678 -check %s %t/elf_i386_got.o

        .text
        .globl  main
        .p2align 4
main:
        calll   pc_label
        .globl  pc_label
pc_label:
        popl    %ebx
# GOTPC: GOT - P plus the implicit addend (the immediate's distance from the
# popped address; the assembler adds the 2 bytes before the immediate), so
# %ebx ends up at the GOT's start: GOT = pc_label + *{4}(got_base + 2). The
# checks below measure from there (the order of GOT entries is the linker's,
# but the GOT starts with one of the two 8-byte-aligned entries).
# jitlink-check: (*{4}(load_got32x + 2)) + (*{4}(load_got32 + 2)) = 8
        .globl  got_base
got_base:
        addl    $_GLOBAL_OFFSET_TABLE_+(.-pc_label), %ebx
# GOT32X (mov): the entry's offset from the GOT's start.
# jitlink-check: *{4}(load_got32x + 2) = (got_addr(elf_i386_got.o, external_data) - (pc_label + *{4}(got_base + 2)))[31:0]
        .globl  load_got32x
load_got32x:
        movl    external_data@GOT(%ebx), %eax
# GOT32 (not a mov: no X form).
# jitlink-check: *{4}(load_got32 + 2) = (got_addr(elf_i386_got.o, named_data) - (pc_label + *{4}(got_base + 2)))[31:0]
        .globl  load_got32
load_got32:
        addl    named_data@GOT(%ebx), %eax
# GOTOFF: the symbol's own offset from the GOT's start.
# jitlink-check: *{4}(load_gotoff + 2) = (named_data - (pc_label + *{4}(got_base + 2)))[31:0]
        .globl  load_gotoff
load_gotoff:
        leal    named_data@GOTOFF(%ebx), %ecx
        retl

# jitlink-check: *{4}(got_addr(elf_i386_got.o, external_data)) = 0x12345678
# jitlink-check: *{4}(got_addr(elf_i386_got.o, named_data)) = named_data
        .data
        .p2align 2
        .globl  named_data
named_data:
        .long   0
