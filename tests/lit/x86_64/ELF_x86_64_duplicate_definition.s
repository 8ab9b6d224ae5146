# A duplicate strong definition is reported with llvm-jitlink's leading
# words, naming the object that brought the second definition.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-linux-gnu -filetype=obj -o %t/first.o %s
# RUN: llvm-mc -triple=x86_64-linux-gnu -filetype=obj -o %t/second.o %s
# RUN: not linklab -noexec -no-process-syms %t/first.o %t/second.o 2>&1 | FileCheck %s
#
# CHECK: In {{.*}}second.o, duplicate definition of {{.*}}main

        .text
        .globl  main
        .type   main,@function
main:
        xorl    %eax, %eax
        retq
        .size   main, .-main
