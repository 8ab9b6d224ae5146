# Instruction relocations: R_LARCH_B16 (beq...: offs16 at [25:10]),
# R_LARCH_B21 (beqz: offs[15:0] at [25:10], offs[20:16] at [4:0]),
# R_LARCH_B26 (b/bl: offs[15:0] at [25:10], offs[25:16] at [9:0]),
# R_LARCH_CALL36 (pcaddu18i + jirl, the upper part rounded by 0x20000) and
# R_LARCH_PCALA_HI20/LO12 (pcalau12i's page delta, rounded up when bit 11
# of the target is set, + the target's low 12 bits), forwards and backwards.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=loongarch64-linux-gnu -filetype=obj -o %t/elf_la64_code.o %s
# RUN: llvm-readelf -r %t/elf_la64_code.o | FileCheck --check-prefix=RELOCS %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 1Mb -slab-address 0x7fff0000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_la64_code.o
#
# RELOCS-DAG: R_LARCH_B16{{ }}
# RELOCS-DAG: R_LARCH_B21{{ }}
# RELOCS-DAG: R_LARCH_B26{{ }}
# RELOCS-DAG: R_LARCH_CALL36{{ }}
# RELOCS-DAG: R_LARCH_PCALA_HI20{{ }}
# RELOCS-DAG: R_LARCH_PCALA_LO12{{ }}

        .text
        .globl  main
        .p2align 2
main:
# jitlink-check: (*{4}b16)[25:10] = ((far - b16) >> 2)[15:0]
        .globl  b16
b16:
        beq     $a0, $a1, far
# jitlink-check: (*{4}b21)[25:10] = ((far - b21) >> 2)[15:0]
# jitlink-check: (*{4}b21)[4:0] = ((far - b21) >> 18)[4:0]
        .globl  b21
b21:
        beqz    $a0, far
# jitlink-check: (*{4}b26)[25:10] = ((far - b26) >> 2)[15:0]
# jitlink-check: (*{4}b26)[9:0] = ((far - b26) >> 18)[9:0]
        .globl  b26
b26:
        bl      far
# jitlink-check: (*{4}call36)[24:5] = (((far - call36) + 0x20000) >> 18)[19:0]
# jitlink-check: (*{4}(call36 + 4))[25:10] = ((far - call36) >> 2)[15:0]
        .globl  call36
call36:
        pcaddu18i $ra, %call36(far)
        jirl    $ra, $ra, 0
# bit 11 of odd_data is set: the page delta is one page more.
# jitlink-check: (*{4}pcala)[24:5] = (((odd_data + 0x800) >> 12) - (pcala >> 12))[19:0]
# jitlink-check: (*{4}(pcala + 4))[21:10] = odd_data[11:0]
# jitlink-check: (*{4}(pcala + 8))[24:5] = (((even_data + 0x800) >> 12) - ((pcala + 8) >> 12))[19:0]
# jitlink-check: (*{4}(pcala + 12))[21:10] = even_data[11:0]
        .globl  pcala
pcala:
        pcalau12i $a0, %pc_hi20(odd_data)
        addi.d  $a0, $a0, %pc_lo12(odd_data)
        pcalau12i $a1, %pc_hi20(even_data)
        ld.d    $a1, $a1, %pc_lo12(even_data)
        ret
        .size   main, .-main

# 64 KiB on, within B16's reach; the branches back from there have negative
# offsets, so every field's high bits are set.
        .section .text.far,"ax",@progbits
        .p2align 2
        .space  0x10000
        .globl  far
far:
# jitlink-check: (*{4}back16)[25:10] = ((b16 - back16) >> 2)[15:0]
# jitlink-check: (*{4}back21)[4:0] = ((main - back21) >> 18)[4:0]
# jitlink-check: (*{4}back21)[25:10] = ((main - back21) >> 2)[15:0]
# jitlink-check: (*{4}back26)[9:0] = ((main - back26) >> 18)[9:0]
# jitlink-check: (*{4}back26)[25:10] = ((main - back26) >> 2)[15:0]
# jitlink-check: (*{4}back36)[24:5] = (((main - back36) + 0x20000) >> 18)[19:0]
# jitlink-check: (*{4}(back36 + 4))[25:10] = ((main - back36) >> 2)[15:0]
        .globl  back16, back21, back26, back36
back16:
        bne     $a0, $a1, b16
back21:
        bnez    $a0, main
back26:
        b       main
back36:
        pcaddu18i $t0, %call36(main)
        jr      $t0

        .data
        .p2align 12
        .globl  even_data, odd_data
even_data:
        .quad   1
        .space  0x900 - 8
odd_data:
        .quad   2
