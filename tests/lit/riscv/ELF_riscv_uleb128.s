# R_RISCV_SET_ULEB128 + R_RISCV_SUB_ULEB128: a ULEB128 label difference,
# rewritten in place keeping the assembler's encoding length.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 -mattr=+relax -filetype=obj -o %t/elf_riscv64_uleb128.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv64_uleb128.o
# RUN: llvm-mc -triple=riscv32 -mattr=+relax -filetype=obj -o %t/elf_riscv32_uleb128.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_riscv32_uleb128.o

        .text
        .globl  main
        .p2align 2
main:
        call    main
        .space  0x90
        .globl  func_end
func_end:
        ret

        .data
# The call relaxes to jal, so the difference is 0x94: two ULEB128 bytes.
# jitlink-check: *{1}uleb = ((func_end - main)[6:0]) | 0x80
# jitlink-check: *{1}(uleb + 1) = (func_end - main) >> 7
        .globl  uleb
uleb:
        .uleb128 func_end - main
# jitlink-check: *{1}after = 0x5a
        .globl  after
after:
        .byte   0x5a
