# MachO common symbols are weak definitions: two objects' commons of _x link
# (one is kept), and a strong _x in another object overrides them: main.o's
# GOT entry holds the strong definition.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=arm64-apple-darwin -filetype=obj --defsym MAIN=1 -o %t/main.o %s
# RUN: llvm-mc -triple=arm64-apple-darwin -filetype=obj --defsym COMMON=1 -o %t/common.o %s
# RUN: llvm-mc -triple=arm64-apple-darwin -filetype=obj --defsym STRONG=1 -o %t/strong.o %s
# RUN: linklab -noexec -no-process-syms %t/main.o %t/common.o
# RUN: linklab -noexec -no-process-syms -check %s %t/main.o %t/strong.o %t/common.o
#
# jitlink-check: *{4}_x = 42
# jitlink-check: *{8}(got_addr(main.o, _x)) = _x

        .section __TEXT,__text,regular,pure_instructions
.ifdef MAIN
        .globl  _main
        .p2align 2
_main:
        adrp    x8, _x@GOTPAGE
        ldr     x8, [x8, _x@GOTPAGEOFF]
        ldr     w0, [x8]
        ret
        .comm   _x,4,2
.endif
.ifdef COMMON
        .globl  _get_x
        .p2align 2
_get_x:
        adrp    x0, _x@GOTPAGE
        ldr     x0, [x0, _x@GOTPAGEOFF]
        ret
        .comm   _x,4,2
.endif
.ifdef STRONG
        .section __DATA,__data
        .globl  _x
        .p2align 2
_x:
        .long   42
.endif
.subsections_via_symbols
