# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 registers its objects with a debugger in its own process; linklab's objects live in an executor (debugged with -gdb), so only -debugger-support=false is accepted.
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t.o %s
# RUN: linklab -noexec -debugger-support=false %t.o
# RUN: not linklab -noexec -debugger-support %t.o 2>&1 | FileCheck %s
# RUN: not linklab -debugger-support=true %t.o 2>&1 | FileCheck %s
# CHECK: option '-debugger-support': linklab registers no objects with a debugger in its own process; debug a run with -gdb

        .text
        .globl  main
main:
        xorl    %eax, %eax
        retq
