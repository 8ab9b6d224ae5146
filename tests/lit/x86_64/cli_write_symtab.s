# -write-symtab FILE: for each object linked, its name in quotes, then its
# named non-local symbols as "0xADDRESS NAME" (what -symbolicate-with reads).
# The C runtime's objects, which stand for llvm-jitlink's process, are not
# written.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/main.o %s
# RUN: linklab -noexec %t/main.o
# RUN: linklab -noexec -write-symtab %t/symtab.txt %t/main.o
# RUN: FileCheck --implicit-check-not='"' --implicit-check-not=helper %s < %t/symtab.txt
# RUN: not linklab -noexec -write-symtab %t/nodir/symtab.txt %t/main.o 2>&1 | FileCheck -check-prefix=NODIR %s
#
# CHECK: "{{.*}}main.o"
# CHECK-DAG: 0x{{[0-9a-f]+}} main
# CHECK-DAG: 0x{{[0-9a-f]+}} data
# CHECK-NOT: {{.}}
# NODIR: {{.*}}nodir/symtab.txt{{.*}}No such file or directory

        .text
        .globl  main
        .type   main,@function
main:
        call    helper
        xorl    %eax, %eax
        retq
helper:
        retq

        .data
        .globl  data
data:
        .quad   1
