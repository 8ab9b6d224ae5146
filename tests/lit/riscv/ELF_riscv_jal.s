# R_RISCV_JAL: J-type jumps, a 21-bit even PC offset.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 -filetype=obj -o %t/elf_riscv64_jal.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv64_jal.o
# RUN: llvm-mc -triple=riscv32 -filetype=obj -o %t/elf_riscv32_jal.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv32_jal.o

        .text
        .globl  main
        .p2align 2
main:
# jitlink-check: decode_operand(test_jal_fwd, 1) = (target_fwd - test_jal_fwd)[20:0]
        .globl  test_jal_fwd
test_jal_fwd:
        jal     ra, target_fwd
        .size   test_jal_fwd, 4
        .globl  target_back
target_back:
        .space  0x2000
# jitlink-check: decode_operand(test_jal_back, 1)[20:0] = (target_back - test_jal_back)[20:0]
        .globl  test_jal_back
test_jal_back:
        jal     zero, target_back
        .size   test_jal_back, 4
        .space  0x100
        .globl  target_fwd
target_fwd:
        ret
