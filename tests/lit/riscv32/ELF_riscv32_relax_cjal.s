# RV32C call relaxation to `c.jal`: a relaxable `call` (link register ra)
# within +-2KiB becomes the 2-byte c.jal, which RV64 lacks (there it stays a
# 4-byte jal); a call out of c.jal's range becomes jal.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv32 -mattr=+c,+relax -filetype=obj -o %t/elf_riscv32_relax_cjal.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv32_relax_cjal.o

        .text
        .globl  main
        .p2align 1
main:
# c.jal: funct3 001, op 01 (0x2001 with the offset bits clear).
# jitlink-check: (*{2}main)[15:13] = 1
# jitlink-check: (*{2}main)[1:0] = 1
        call    near_func
# jitlink-check: far_site = main + 2
        .globl  far_site
far_site:
# jitlink-check: (*{4}far_site)[11:0] = 0xef
# jitlink-check: (*{4}far_site)[30:21] = ((far_func - far_site) >> 1)[9:0]
# jitlink-check: (*{4}far_site)[19:12] = ((far_func - far_site) >> 12)[7:0]
        call    far_func
        .globl  near_func
near_func:
# jitlink-check: near_func = main + 6
        ret
        .space  0x1000
# jitlink-check: far_func = near_func + 0x1002
        .globl  far_func
far_func:
        ret
        .size   main, 12
