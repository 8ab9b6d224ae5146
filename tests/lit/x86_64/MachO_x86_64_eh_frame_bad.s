# MachO __eh_frame records that name no CIE or no function fail with
# llvm-jitlink's words, then linklab's location: an FDE whose CIE pointer
# (0x2c) reaches before the section, and one whose PC begin is in no block.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-apple-macos -filetype=obj -o %t/good.o %s
# RUN: llvm-mc -triple=x86_64-apple-macos -filetype=obj --defsym BADCIE=1 -o %t/badcie.o %s
# RUN: llvm-mc -triple=x86_64-apple-macos -filetype=obj --defsym BADPC=1 -o %t/badpc.o %s
# RUN: linklab -noexec %t/good.o
# RUN: not linklab -noexec %t/badcie.o 2>&1 | FileCheck -check-prefix=ERRCIE %s
# RUN: not linklab -noexec %t/badpc.o 2>&1 | FileCheck -check-prefix=ERRPC %s
#
# ERRCIE: error: No CIE found at address 0xfffffffffffffff8
# ERRPC: error: No symbol or block covering address 0x1000000000000028

        .section __TEXT,__text,regular,pure_instructions
        .globl  _main
        .p2align 4
_main:
        xorl    %eax, %eax
        retq

        .section __TEXT,__eh_frame
        .p2align 3
EH_Frame1:
        .long   0x14                    # CIE: length
        .long   0                       # CIE id
        .byte   1                       # version
        .asciz  "zR"
        .byte   1, 0x78, 0x10           # code and data alignment, return register
        .byte   1, 0x10                 # augmentation length; FDE pointers pc-relative
        .byte   0x0c, 7, 8, 0x90, 1, 0, 0
func.eh:
        .long   0x1c                    # FDE: length
.ifdef BADCIE
        .long   0x2c
.else
        .long   func.eh + 4 - EH_Frame1 # CIE pointer: the distance back to the CIE
.endif
.ifdef BADPC
        .quad   0x1000000000000000
.else
        .quad   _main - func.eh - 8     # PC begin: a SUBTRACTOR pair to _main
.endif
        .quad   3                       # PC range
        .byte   0
        .byte   0, 0, 0, 0, 0, 0, 0
.subsections_via_symbols
