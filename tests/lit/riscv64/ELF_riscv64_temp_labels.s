# Assembler temporaries kept in the symbol table (GNU as leaves them for
# debug info; here --save-temp-labels): a relocation's .L target becomes a
# graph symbol, one nothing refers to does not, and the PC-relative pair
# through the temporary is fixed up.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64-unknown-linux-gnu -mattr=+relax -filetype=obj --save-temp-labels \
# RUN:   -o %t/temps.o %s
# RUN: llvm-readelf -s %t/temps.o | FileCheck --check-prefix=SYMTAB %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t/temps.o
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -show-graphs='.*' %t/temps.o | FileCheck %s
#
# SYMTAB: NOTYPE LOCAL DEFAULT {{.*}} .Lunused
# SYMTAB: NOTYPE LOCAL DEFAULT {{.*}} .Lused
#
# CHECK-NOT: .Lunused
# CHECK: scope: local, live - .Lused
# CHECK: kind = R_RISCV_PCREL_LO12_I, target = .Lused
# CHECK-NOT: .Lunused

        .text
        .globl  main
        .type   main,@function
main:
.Lunused:
        nop
.Lused:
        auipc   a0, %pcrel_hi(data)
# jitlink-check: decode_operand(main + 8, 2)[11:0] = (data - (main + 4))[11:0]
        addi    a0, a0, %pcrel_lo(.Lused)
        li      a0, 0
        ret
        .size main, .-main

        .data
data:   .quad 1
