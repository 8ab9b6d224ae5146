# A MachO graph that defines __jitlink$libunwind_dso_base (an absolute symbol)
# pins the mach header __unwind_info's 32-bit offsets count from: no header
# of the graph's own is made. Pinned below the code, the link succeeds and
# the offsets count from it; pinned above, the end-of-functions delta does not
# fit and the link fails with llvm-jitlink's words.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-apple-darwin11 -filetype=obj --defsym LOW=1 -o %t/low.o %s
# RUN: llvm-mc -triple=x86_64-apple-darwin11 -filetype=obj --defsym HIGH=1 -o %t/high.o %s
# RUN: llvm-mc -triple=arm64-apple-darwin -filetype=obj --defsym HIGH=1 --defsym ARM=1 -o %t/high64.o %s
# RUN: llvm-mc -triple=x86_64-apple-darwin11 -filetype=obj -o %t/own.o %s
#
# RUN: linklab -noexec -entry=_main -slab-allocate 1Mb -slab-address 0x1000 -slab-page-size 4096 %t/low.o
# RUN: not linklab -noexec -entry=_main -slab-allocate 1Mb -slab-address 0x1000 -slab-page-size 4096 \
# RUN:     %t/high.o 2>&1 | FileCheck -check-prefix=HIGH %s
# RUN: not linklab -noexec -entry=_main -slab-allocate 1Mb -slab-address 0x1000 -slab-page-size 4096 \
# RUN:     %t/high64.o 2>&1 | FileCheck -check-prefix=HIGH64 %s
# Without the symbol the graph's own header (laid out below its code) is the
# base, wherever the slab is.
# RUN: linklab -noexec -entry=_main -slab-allocate 1Mb -slab-address 0x800000000000 -slab-page-size 4096 %t/own.o
#
# HIGH: In {{.*}}high.o __TEXT,__unwind_info, delta to end of functions  0x2006 exceeds 32 bits
# HIGH64: In {{.*}}high64.o __TEXT,__unwind_info, delta to end of functions  0x2004 exceeds 32 bits

        .section  __TEXT,__text,regular,pure_instructions
        .globl  _main
        .p2align  2
_main:
        .cfi_startproc
.ifdef ARM
        ret
.else
        pushq   %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        popq    %rbp
        retq
.endif
        .cfi_endproc

.ifdef LOW
        .globl  __jitlink$libunwind_dso_base
        .set  __jitlink$libunwind_dso_base, 0x800
.endif
.ifdef HIGH
        .globl  __jitlink$libunwind_dso_base
        .set  __jitlink$libunwind_dso_base, 0xffff000000000000
.endif

        .subsections_via_symbols
