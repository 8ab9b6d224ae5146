# SET/SUB relocations: R_RISCV_SET6/SET8/SET16/SET32 overwrite a field with
# S + A; R_RISCV_SUB6 subtracts in the low 6 bits only (DWARF CFA advance
# opcodes keep their high 2 bits).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 -filetype=obj -o %t/elf_riscv64_set.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv64_set.o
# RUN: llvm-mc -triple=riscv32 -filetype=obj -o %t/elf_riscv32_set.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv32_set.o

        .text
        .globl  main
        .p2align 2
main:
        ret

        .data
# jitlink-check: *{1}set6 = ((main + 0x25)[5:0]) | 0xc0
        .globl  set6
set6:
        .reloc  ., R_RISCV_SET6, main + 0x25
        .byte   0xff
# (0x3f - main) in the low 6 bits; the high 2 bits keep 0b01. (No addend:
# llvm-jitlink-22 adds SUB6's addend instead of subtracting it.)
# jitlink-check: ((*{1}sub6) + main)[5:0] = 0x3f
# jitlink-check: (*{1}sub6) >> 6 = 1
        .globl  sub6
sub6:
        .reloc  ., R_RISCV_SUB6, main
        .byte   0x7f
# jitlink-check: *{1}set8 = (main + 0x12)[7:0]
        .globl  set8
set8:
        .reloc  ., R_RISCV_SET8, main + 0x12
        .byte   0
# jitlink-check: *{2}set16 = (main + 0x1234)[15:0]
        .globl  set16
set16:
        .reloc  ., R_RISCV_SET16, main + 0x1234
        .half   0
# jitlink-check: *{4}set32 = (main + 0x12345678)[31:0]
        .globl  set32
set32:
        .reloc  ., R_RISCV_SET32, main + 0x12345678
        .word   0
# jitlink-check: *{1}after = 0x5a
        .globl  after
after:
        .byte   0x5a
