# R_RISCV_GOT_HI20 (+ R_RISCV_PCREL_LO12_I on the load): a GOT entry is
# created for the symbol and the auipc/ld (lw on RV32) pair addresses it PC-relatively.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 --defsym=RV64=1 -filetype=obj -o %t/elf_riscv_got.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -abs external_data=0x12345678 -check %s %t/elf_riscv_got.o
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -abs external_data=0x12345678 -check-name=rv64-check -check %s %t/elf_riscv_got.o
# RUN: llvm-mc -triple=riscv32 -filetype=obj -o %t/elf_riscv_got.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -abs external_data=0x12345678 -check %s %t/elf_riscv_got.o
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -abs external_data=0x12345678 -check-name=rv32-check -check %s %t/elf_riscv_got.o

        .text
        .globl  main
        .p2align 2
main:
# jitlink-check: (*{4}test_got_ext)[31:12] = ((got_addr(elf_riscv_got.o, external_data) - test_got_ext) + 0x800)[31:12]
# jitlink-check: decode_operand(test_got_ext + 4, 2)[11:0] = (got_addr(elf_riscv_got.o, external_data) - test_got_ext)[11:0]
        .globl  test_got_ext
test_got_ext:
        auipc   a0, %got_pcrel_hi(external_data)
        .ifdef RV64
        ld      a0, %pcrel_lo(test_got_ext)(a0)
        .else
        lw      a0, %pcrel_lo(test_got_ext)(a0)
        .endif
# jitlink-check: (*{4}test_got_local)[31:12] = ((got_addr(elf_riscv_got.o, named_data) - test_got_local) + 0x800)[31:12]
# jitlink-check: decode_operand(test_got_local + 4, 2)[11:0] = (got_addr(elf_riscv_got.o, named_data) - test_got_local)[11:0]
        .globl  test_got_local
test_got_local:
        auipc   a1, %got_pcrel_hi(named_data)
        .ifdef RV64
        ld      a1, %pcrel_lo(test_got_local)(a1)
        .else
        lw      a1, %pcrel_lo(test_got_local)(a1)
        .endif
        ret

        .data
        .globl  named_data
named_data:
        .quad   0

# rv64-check: *{8}(got_addr(elf_riscv_got.o, external_data)) = external_data
# rv64-check: *{8}(got_addr(elf_riscv_got.o, named_data)) = named_data
# rv32-check: *{4}(got_addr(elf_riscv_got.o, external_data)) = external_data
# rv32-check: *{4}(got_addr(elf_riscv_got.o, named_data)) = named_data
