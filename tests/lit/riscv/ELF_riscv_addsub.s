# Label differences as ADD/SUB pairs: R_RISCV_ADD8/16/32/64 with
# R_RISCV_SUB8/16/32/64 at the same offset.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 -mattr=+relax -filetype=obj -o %t/elf_riscv64_addsub.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv64_addsub.o
# RUN: llvm-mc -triple=riscv32 -mattr=+relax -filetype=obj -o %t/elf_riscv32_addsub.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv32_addsub.o

        .text
        .globl  main
        .p2align 2
main:
        ret
        .globl  mid
mid:
        ret
        .space  0x1234
        .globl  func_end
func_end:
        ret

        .data
# jitlink-check: *{8}diff64 = func_end - main + 7
        .globl  diff64
diff64:
        .quad   func_end - main + 7
# jitlink-check: *{4}diff32 = func_end - main
        .globl  diff32
diff32:
        .word   func_end - main
# jitlink-check: *{2}diff16 = (main - func_end)[15:0]
        .globl  diff16
diff16:
        .half   main - func_end
# jitlink-check: *{1}diff8 = (main - mid)[7:0]
        .globl  diff8
diff8:
        .byte   main - mid
