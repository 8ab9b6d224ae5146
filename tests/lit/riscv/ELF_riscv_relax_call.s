# Call relaxation (R_RISCV_CALL_PLT + R_RISCV_RELAX): auipc+jalr becomes
# `jal` when the target is within +-1MiB and `c.j` for a tail call within
# +-2KiB in an RVC object; symbols after each call move back.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 -mattr=+c,+relax -filetype=obj -o %t/elf_riscv64_relax_call.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv64_relax_call.o
# RUN: llvm-mc -triple=riscv32 -mattr=+c,+relax -filetype=obj -o %t/elf_riscv32_relax_call.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv32_relax_call.o

        .text
        .globl  main
        .p2align 1
main:
# call -> jal ra (4 bytes): 0xef is jal's opcode with rd = ra.
# jitlink-check: (*{4}main)[11:0] = 0xef
# jitlink-check: decode_operand(main, 1) = (far_func - main)[20:0]
        call    far_func
# tail -> c.j (2 bytes, at main + 4).
# jitlink-check: tail_site = main + 4
# jitlink-check: decode_operand(tail_site, 0)[11:0] = (near_func - tail_site)[11:0]
        .globl  tail_site
tail_site:
        tail    near_func
        .size   tail_site, 8
        .globl  near_func
near_func:
# jitlink-check: near_func = main + 6
        ret
        .space  0x1000
        .globl  far_func
far_func:
# jitlink-check: far_func = (main + 8) + 0x1000
        ret
        .size   main, 8
