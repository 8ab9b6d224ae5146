# General-dynamic TLS (what clang emits for -fPIC TLS, local-dynamic too):
# R_RISCV_TLS_GD_HI20 on the auipc, R_RISCV_PCREL_LO12_I on the addi, then a
# call to __tls_get_addr with the pair's address. As a static linker does,
# the pair {module id, DTPREL} is {1, offset in the TLS block - 0x800}
# (glibc's TLS_DTV_OFFSET), one pair per symbol, in the $__TLSGD section.
# Here .tdata holds td1 at 0 and td2 at 4; .tbss (align 16) puts tb at 16.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 rejects R_RISCV_TLS_GD_HI20
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 -mattr=+relax -filetype=obj -o %t/gd.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -abs __tls_get_addr=0xfff80000 -check %s %t/gd.o
# On RV32 the pair is two 4-byte words (R_RISCV_TLS_DTPREL32).
# RUN: llvm-mc -triple=riscv32 -mattr=+relax -filetype=obj -o %t/gd32.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -abs __tls_get_addr=0xfff80000 -check %s -check-name=rv32-check %t/gd32.o

        .text
        .globl  main
        .p2align 2
main:
# The first pair is td2's (its first reference); the second, tb's.
# jitlink-check: (*{4}gd_td2)[31:12] = ((section_addr(gd.o, $__TLSGD) - gd_td2) + 0x800)[31:12]
# jitlink-check: decode_operand(gd_td2 + 4, 2)[11:0] = (section_addr(gd.o, $__TLSGD) - gd_td2)[11:0]
        .globl  gd_td2
gd_td2:
        auipc   a0, %tls_gd_pcrel_hi(td2)
        addi    a0, a0, %pcrel_lo(gd_td2)
        call    __tls_get_addr
# jitlink-check: (*{4}gd_tb)[31:12] = ((section_addr(gd.o, $__TLSGD) + 16 - gd_tb) + 0x800)[31:12]
# jitlink-check: decode_operand(gd_tb + 4, 2)[11:0] = (section_addr(gd.o, $__TLSGD) + 16 - gd_tb)[11:0]
        .globl  gd_tb
gd_tb:
        auipc   a0, %tls_gd_pcrel_hi(tb)
        addi    a0, a0, %pcrel_lo(gd_tb)
        call    __tls_get_addr
# A second reference to td2 shares its pair.
# jitlink-check: (*{4}gd_again)[31:12] = ((section_addr(gd.o, $__TLSGD) - gd_again) + 0x800)[31:12]
        .globl  gd_again
gd_again:
        auipc   a0, %tls_gd_pcrel_hi(td2)
        addi    a0, a0, %pcrel_lo(gd_again)
        ret

# jitlink-check: *{8}(section_addr(gd.o, $__TLSGD)) = 1
# jitlink-check: *{8}(section_addr(gd.o, $__TLSGD) + 8) = 4 - 0x800
# jitlink-check: *{8}(section_addr(gd.o, $__TLSGD) + 16) = 1
# jitlink-check: *{8}(section_addr(gd.o, $__TLSGD) + 24) = 16 - 0x800
# rv32-check: *{4}(section_addr(gd32.o, $__TLSGD)) = 1
# rv32-check: *{4}(section_addr(gd32.o, $__TLSGD) + 4) = (4 - 0x800)[31:0]
# rv32-check: *{4}(section_addr(gd32.o, $__TLSGD) + 8) = 1
# rv32-check: *{4}(section_addr(gd32.o, $__TLSGD) + 12) = (16 - 0x800)[31:0]
# rv32-check: (*{4}gd_tb)[31:12] = ((section_addr(gd32.o, $__TLSGD) + 8 - gd_tb) + 0x800)[31:12]

        .section .tdata,"awT",@progbits
        .p2align 2
td1:    .word   1
td2:    .word   2
        .section .tbss,"awT",@nobits
        .p2align 4
tb:     .space  8
