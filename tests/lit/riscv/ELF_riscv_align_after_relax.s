# Alignment after call relaxation: each call before an aligned label shrinks
# (to c.j / jal), shifting the code, and the padding before the label must
# shrink by as much so the label stays aligned.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 -mattr=+c,+relax -filetype=obj -o %t/elf_riscv64_align_after_relax.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv64_align_after_relax.o
# RUN: llvm-mc -triple=riscv32 -mattr=+c,+relax -filetype=obj -o %t/elf_riscv32_align_after_relax.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv32_align_after_relax.o

        .text
        .globl  main, a16, a64, after
        .p2align 6
main:
        tail    main
        .p2align 4
a16:
        call    main
        .p2align 6
a64:
        ret
after:
        ret
# jitlink-check: a16 = main + 16
# jitlink-check: a64 = main + 64
# jitlink-check: after = main + 66
