# Compressed branches and jumps, without relaxation: R_RISCV_RVC_BRANCH
# (c.beqz/c.bnez, 9-bit even offset) and R_RISCV_RVC_JUMP (c.j, 12-bit).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 -mattr=+c,-relax -filetype=obj -o %t/elf_riscv64_rvc.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv64_rvc.o
# RUN: llvm-mc -triple=riscv32 -mattr=+c,-relax -filetype=obj -o %t/elf_riscv32_rvc.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv32_rvc.o

        .text
        .option exact
        .globl  main
        .p2align 1
main:
# jitlink-check: decode_operand(test_rvc_branch, 1)[8:0] = (target_fwd - test_rvc_branch)[8:0]
        .globl  test_rvc_branch
test_rvc_branch:
        c.beqz  a0, target_fwd
        .size   test_rvc_branch, 2
        .globl  target_back
target_back:
        .space  0x80
# jitlink-check: decode_operand(test_rvc_jump, 0)[11:0] = (target_back - test_rvc_jump)[11:0]
        .globl  test_rvc_jump
test_rvc_jump:
        c.j     target_back
        .size   test_rvc_jump, 2
# jitlink-check: decode_operand(test_rvc_jump_fwd, 0)[11:0] = (target_fwd - test_rvc_jump_fwd)[11:0]
        .globl  test_rvc_jump_fwd
test_rvc_jump_fwd:
        c.j     target_fwd
        .size   test_rvc_jump_fwd, 2
        .space  0x60
        .globl  target_fwd
target_fwd:
        c.jr    ra
