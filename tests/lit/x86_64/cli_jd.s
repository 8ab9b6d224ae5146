# -jd NAME: the inputs after it go in JITDylib NAME, which -lNAME links the
# main JITDylib against (here before -jd, as llvm-jitlink allows). A
# JITDylib nothing links is not searched: its symbols are not found.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/main.o %s
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj --defsym LIB=1 -o %t/lib.o %s
# RUN: llvm-ar crs %t/libExtra.a %t/lib.o
# RUN: linklab -noexec -check=%s %t/main.o %t/libExtra.a
# RUN: linklab -noexec -check=%s %t/main.o -lFoo -jd Foo -L%t -lExtra
# RUN: linklab -noexec -check=%s %t/main.o -lFoo -jd Foo %t/libExtra.a
# RUN: not linklab -noexec %t/main.o -jd Foo %t/libExtra.a

# jitlink-check: *{8}ref = extra

.ifdef LIB
        .data
        .globl  extra
extra:
        .quad   42
.else
        .text
        .globl  main
main:
        xorl    %eax, %eax
        retq

        .data
        .globl  ref
ref:
        .quad   extra
.endif
