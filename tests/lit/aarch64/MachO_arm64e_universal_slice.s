# A universal archive or object with both an arm64 and an arm64e slice links
# the slice of the first object's subtype: arm64e objects take the arm64e
# slice, arm64 objects the arm64 one.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=arm64e-apple-darwin -filetype=obj -o %t/main-e.o %s
# RUN: llvm-mc -triple=arm64-apple-darwin -filetype=obj -o %t/main.o %s
# RUN: llvm-mc -triple=arm64-apple-darwin -filetype=obj --defsym X_DEF=1 --defsym X_VALUE=1 -o %t/x.arm64.o %s
# RUN: llvm-mc -triple=arm64e-apple-darwin -filetype=obj --defsym X_DEF=1 --defsym X_VALUE=2 -o %t/x.arm64e.o %s
# RUN: llvm-ar crs %t/libX.arm64.a %t/x.arm64.o
# RUN: llvm-ar crs %t/libX.arm64e.a %t/x.arm64e.o
# RUN: llvm-lipo --create --output %t/libX.a %t/libX.arm64.a %t/libX.arm64e.a
# RUN: llvm-lipo --create --output %t/x.o %t/x.arm64e.o %t/x.arm64.o
# RUN: linklab -noexec -check=%s %t/main.o -L%t -lX
# RUN: linklab -noexec -check=%s -check-name=e-check %t/main-e.o -L%t -lX
# RUN: linklab -noexec -check=%s -check-name=e-check %t/main-e.o %t/x.o
# RUN: linklab -noexec -check=%s %t/main.o %t/x.o

# jitlink-check: *{4}_x = 1
# e-check: *{4}_x = 2

.ifdef X_DEF
        .section  __DATA,__data
        .globl  _x
        .p2align  2
_x:
        .long   X_VALUE
.else
        .section  __TEXT,__text,regular,pure_instructions
        .globl  _main
        .p2align  2
_main:
        ret

        .section  __DATA,__data
        .globl  _p
        .p2align  3
_p:
        .quad   _x
.endif

        .subsections_via_symbols
