# R_RISCV_BRANCH: B-type conditional branches, a 13-bit even PC offset.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 -filetype=obj -o %t/elf_riscv64_branch.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv64_branch.o
# RUN: llvm-mc -triple=riscv32 -filetype=obj -o %t/elf_riscv32_branch.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv32_branch.o

        .text
        .option exact
        .globl  main
        .p2align 2
main:
# jitlink-check: decode_operand(test_branch_fwd, 2) = (target_fwd - test_branch_fwd)[12:0]
        .globl  test_branch_fwd
test_branch_fwd:
        beq     a0, a1, target_fwd
        .size   test_branch_fwd, 4
        .globl  target_back
target_back:
        .space  0x100
# jitlink-check: decode_operand(test_branch_back, 2)[12:0] = (target_back - test_branch_back)[12:0]
        .globl  test_branch_back
test_branch_back:
        bne     a0, a1, target_back
        .size   test_branch_back, 4
        .space  0x7f0
        .globl  target_fwd
target_fwd:
        ret
