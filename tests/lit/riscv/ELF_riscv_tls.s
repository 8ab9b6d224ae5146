# Local-exec (R_RISCV_TPREL_HI20/LO12_I/LO12_S/ADD) and initial-exec
# (R_RISCV_TLS_GOT_HI20 + R_RISCV_PCREL_LO12_I) TLS. TP points at the start of
# the graph's TLS image: .tdata first, then .tbss, each at its alignment.
# Here td1 = 0, td2 = 4, .tdata ends at 8 and .tbss (align 16) puts tb at 16.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 rejects R_RISCV_TPREL_HI20 ("Unsupported riscv relocation:29")
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 -mattr=+relax --defsym=RV64=1 -filetype=obj -o %t/elf_riscv_tls.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv_tls.o
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check-name=rv64-check -check %s %t/elf_riscv_tls.o
# RUN: llvm-mc -triple=riscv32 -mattr=+relax -filetype=obj -o %t/elf_riscv_tls.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv_tls.o
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check-name=rv32-check -check %s %t/elf_riscv_tls.o

        .text
        .globl  main
        .p2align 2
main:
# jitlink-check: (*{4}le_hi)[31:12] = 0
        .globl  le_hi
le_hi:
        lui     a0, %tprel_hi(tb)
        add     a0, a0, tp, %tprel_add(tb)
# jitlink-check: decode_operand(le_lo, 2) = 16
        .globl  le_lo
le_lo:
        addi    a0, a0, %tprel_lo(tb)
        .size   le_lo, 4
# jitlink-check: decode_operand(le_st, 2) = 4
        .globl  le_st
le_st:
        sw      a1, %tprel_lo(td2)(a0)
        .size   le_st, 4
# rv64-check: *{8}(got_addr(elf_riscv_tls.o, td2)) = 4
# rv32-check: *{4}(got_addr(elf_riscv_tls.o, td2)) = 4
# jitlink-check: (*{4}ie)[31:12] = ((got_addr(elf_riscv_tls.o, td2) - ie) + 0x800)[31:12]
# jitlink-check: decode_operand(ie + 4, 2)[11:0] = (got_addr(elf_riscv_tls.o, td2) - ie)[11:0]
        .globl  ie
ie:
        auipc   a2, %tls_ie_pcrel_hi(td2)
        .ifdef RV64
        ld      a2, %pcrel_lo(ie)(a2)
        .else
        lw      a2, %pcrel_lo(ie)(a2)
        .endif
        ret

        .section .tdata,"awT",@progbits
        .p2align 2
td1:    .word   1
td2:    .word   2
        .section .tbss,"awT",@nobits
        .p2align 4
tb:     .space  8
