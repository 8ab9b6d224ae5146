# A run with -perf-support writes a perf jitdump where llvm-jitlink writes its own
# ($JITDUMPDIR/.debug/jit/llvm-IR-jit-*/jit-<pid>.dump): the header names
# x86-64 (e_machine 62), each function has a CODE_LOAD record with its code
# bytes, and a CLOSE record ends the file. (llvm-jitlink adds DEBUG_INFO and
# UNWINDING_INFO records; linklab writes none.)
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux -filetype=obj -o %t/perf.o %s
# RUN: JITDUMPDIR=%t linklab -perf-support %t/perf.o
# RUN: python3 %S/Inputs/jitdump.py %t/.debug/jit/llvm-IR-jit-*/jit-*.dump | FileCheck %s
#
# CHECK: jitdump version 1 machine 62 flags 0
# CHECK-DAG: CODE_LOAD one size 6 code b801000000c3
# CHECK-DAG: CODE_LOAD main size 3 code 31c0c3
# CHECK: CLOSE

        .text
        .globl  one
        .type   one,@function
one:
        movl    $1, %eax
        retq
        .size   one, .-one

        .globl  main
        .type   main,@function
main:
        xorl    %eax, %eax
        retq
        .size   main, .-main
