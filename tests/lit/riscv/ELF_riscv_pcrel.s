# PC-relative %pcrel_hi/%pcrel_lo pairs: R_RISCV_PCREL_HI20 on the auipc,
# R_RISCV_PCREL_LO12_I/S on the instruction using it. The LO12's symbol is
# the auipc's label: its value comes from the HI20 relocation at that address.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 --defsym=RV64=1 -filetype=obj -o %t/elf_riscv_pcrel.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv_pcrel.o
# RUN: llvm-mc -triple=riscv32 -filetype=obj -o %t/elf_riscv_pcrel.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv_pcrel.o

        .text
        .globl  main
        .p2align 2
main:
# jitlink-check: (*{4}test_pcrel_hi)[31:12] = ((named_data - test_pcrel_hi) + 0x800)[31:12]
        .globl  test_pcrel_hi
test_pcrel_hi:
        auipc   a0, %pcrel_hi(named_data)
# jitlink-check: decode_operand(test_pcrel_lo_i, 2)[11:0] = (named_data - test_pcrel_hi)[11:0]
        .globl  test_pcrel_lo_i
test_pcrel_lo_i:
        .ifdef RV64
        ld      a1, %pcrel_lo(test_pcrel_hi)(a0)
        .else
        lw      a1, %pcrel_lo(test_pcrel_hi)(a0)
        .endif
        .size   test_pcrel_lo_i, 4
# jitlink-check: decode_operand(test_pcrel_lo_s, 2)[11:0] = (named_data - test_pcrel_hi)[11:0]
        .globl  test_pcrel_lo_s
test_pcrel_lo_s:
        .ifdef RV64
        sd      a1, %pcrel_lo(test_pcrel_hi)(a0)
        .else
        sw      a1, %pcrel_lo(test_pcrel_hi)(a0)
        .endif
        .size   test_pcrel_lo_s, 4
        ret

        .data
        .space  0x7fc
        .globl  named_data
named_data:
        .quad   0
