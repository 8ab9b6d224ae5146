# LoongArch 32: a PCADD_LO12 whose label is no pcaddu12i with a PCADD_HI20,
# and a CALL30 to a target that is not 4-aligned, are errors naming the
# relocation's place, after llvm-jitlink-22's words.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=loongarch32 -filetype=obj -defsym=LONE=1 -o %t/lone.o %s
# RUN: not linklab -noexec -no-process-syms %t/lone.o 2>&1 | FileCheck --check-prefix=LONE %s
# RUN: llvm-mc -triple=loongarch32 -filetype=obj -defsym=MISALIGNED=1 -o %t/misaligned.o %s
# RUN: not linklab -noexec -no-process-syms %t/misaligned.o 2>&1 | FileCheck --check-prefix=MISALIGNED %s
#
# LONE: No PCAddHi20 relocation type be found for PCAddLo12 relocation type
# MISALIGNED: 0x9 is not aligned to 4 bytes

        .text
        .globl  main
        .p2align 2
main:
.ifdef LONE
not_a_pair:
        nop
        addi.w  $a0, $a0, %pcadd_lo12(not_a_pair)
.endif
.ifdef MISALIGNED
        pcaddu12i $ra, %call30(odd)
        jirl    $ra, $ra, 0
        .byte   0
odd:
        ret
.endif
        ret
