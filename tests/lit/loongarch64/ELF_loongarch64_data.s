# Data relocations: R_LARCH_64, R_LARCH_32 (S + A, unsigned 32-bit),
# R_LARCH_32_PCREL (S + A - P), and the ADD/SUB pairs a relaxing assembler
# leaves for label differences (6, 8, 16, 32, 64 bits and ULEB128), each
# half applied in turn to the bytes in place.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=loongarch64-linux-gnu -mattr=+relax -filetype=obj -o %t/elf_la64_data.o %s
# RUN: llvm-readelf -r %t/elf_la64_data.o | FileCheck --check-prefix=RELOCS %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x12340000 \
# RUN:     -slab-page-size 4096 -abs ext_data=0x7654321 -check %s %t/elf_la64_data.o
#
# RELOCS-DAG: R_LARCH_64{{ }}
# RELOCS-DAG: R_LARCH_32{{ }}
# RELOCS-DAG: R_LARCH_32_PCREL{{ }}
# RELOCS-DAG: R_LARCH_ADD6{{ }}
# RELOCS-DAG: R_LARCH_SUB6{{ }}
# RELOCS-DAG: R_LARCH_ADD8{{ }}
# RELOCS-DAG: R_LARCH_SUB8{{ }}
# RELOCS-DAG: R_LARCH_ADD16{{ }}
# RELOCS-DAG: R_LARCH_SUB16{{ }}
# RELOCS-DAG: R_LARCH_ADD32{{ }}
# RELOCS-DAG: R_LARCH_SUB32{{ }}
# RELOCS-DAG: R_LARCH_ADD64{{ }}
# RELOCS-DAG: R_LARCH_SUB64{{ }}
# RELOCS-DAG: R_LARCH_ADD_ULEB128{{ }}
# RELOCS-DAG: R_LARCH_SUB_ULEB128{{ }}

        .text
        .globl  main
        .p2align 2
main:
        ret
        .size   main, .-main
# A relaxable call between the labels: their distance is not final until
# the linker has run, so the assembler leaves every difference to it.
        .globl  func_start, func_end
func_start:
        call36  main
        nop
func_end:

        .data
        .p2align 3
# jitlink-check: *{8}abs64 = ext_data
# jitlink-check: *{8}(abs64 + 8) = main + 0x1234
        .globl  abs64
abs64:
        .quad   ext_data
        .quad   main + 0x1234

# jitlink-check: *{4}abs32 = ext_data + 16
# jitlink-check: *{4}(abs32 + 4) = main
        .globl  abs32
abs32:
        .word   ext_data + 16
        .word   main

# jitlink-check: *{4}pcrel32 = (main - pcrel32)[31:0]
# jitlink-check: *{4}(pcrel32 + 4) = ((ext_data + 8) - (pcrel32 + 4))[31:0]
        .globl  pcrel32
pcrel32:
        .word   main - .
        .word   ext_data + 8 - .

# Label differences across sections become ADD/SUB pairs: the result is the
# distance, wrapped to the field (ADD6/SUB6 keep the top two bits).
# jitlink-check: *{8}diff64 = func_end - main
# jitlink-check: *{4}diff32 = func_end - func_start
# jitlink-check: *{2}diff16 = func_end - main + 0x100
# jitlink-check: *{1}diff8 = func_end - func_start
# jitlink-check: *{1}diff6 = (func_end - main) + 0xc0
# jitlink-check: *{1}uleb = func_end - func_start
# A two-byte ULEB128 keeps its length: low 7 bits with the continuation bit, then the rest.
# jitlink-check: *{2}uleb2 = ((((func_end - main) + 0x80) & 0x7f) + 0x80) + ((((func_end - main) + 0x80) >> 7) << 8)
        .globl  diff64, diff32, diff16, diff8, diff6, uleb, uleb2
diff64:
        .quad   func_end - main
diff32:
        .word   func_end - func_start
diff16:
        .half   func_end - main + 0x100
diff8:
        .byte   func_end - func_start
diff6:
        .reloc  ., R_LARCH_ADD6, func_end
        .reloc  ., R_LARCH_SUB6, main
        .byte   0xc0
uleb:
        .uleb128 func_end - func_start
uleb2:
        .uleb128 func_end - main + 0x80
