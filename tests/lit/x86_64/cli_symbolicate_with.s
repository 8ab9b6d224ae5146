# -symbolicate-with SYMTAB: no link; each input is a backtrace, printed with
# every line whose last word is a hex address at most 2 GiB past a symbol of
# SYMTAB (as -write-symtab writes it) followed by "NAME[ + DELTA] (OBJECT)".
# Other lines, and lines in the table that are not "ADDR NAME", are kept and
# skipped as llvm-jitlink keeps and skips them.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/main.o %s
# RUN: linklab -noexec -write-symtab %t/symtab.txt %t/main.o
# The backtrace: main's address, main + 5, helper, 0x10 (below every symbol),
# helper + 2 GiB - 1 (the farthest symbolicated) and helper + 2 GiB (too far).
# RUN: grep ' main$' %t/symtab.txt | { read A N; H=$(grep ' helper$' %t/symtab.txt | cut -d' ' -f1); \
# RUN:   printf 'Stack dump:\n#0 0x%x\n#1 %x \n#2 in %x\n#3 0x10\n#4 0x%x\n#5 0x%x\n#6 0x%x not-an-address\n' \
# RUN:     $((A)) $((A + 5)) $((H)) $((H + 0x7fffffff)) $((H + 0x80000000)) $((A)); } > %t/bt.txt
# RUN: linklab -symbolicate-with %t/symtab.txt %t/bt.txt | FileCheck --match-full-lines %s
# RUN: linklab -symbolicate-with %t/symtab.txt - < %t/bt.txt | FileCheck --match-full-lines %s
#
# CHECK:      Stack dump:
# CHECK-NEXT: #0 0x{{[0-9a-f]+}} main ({{.*}}main.o)
# CHECK-NEXT: #1 {{[0-9a-f]+}} main + 5 ({{.*}}main.o)
# CHECK-NEXT: #2 in {{[0-9a-f]+}} helper ({{.*}}main.o)
# CHECK-NEXT: #3 0x10
# CHECK-NEXT: #4 0x{{[0-9a-f]+}} helper + 2147483647 ({{.*}}main.o)
# CHECK-NEXT: #5 0x{{[0-9a-f]+}}
# CHECK-NEXT: #6 0x{{[0-9a-f]+}} not-an-address
# CHECK-EMPTY:
# CHECK-EMPTY:
#
# Malformed table lines are skipped; a quoted line names the next symbols' object.
# RUN: { echo '"other.o"'; echo 'nospace'; echo 'zz main'; echo '0x'; echo '0X10 main'; \
# RUN:   echo "$(grep ' helper$' %t/symtab.txt | cut -d' ' -f1) renamed"; } > %t/bad.txt
# RUN: linklab -symbolicate-with %t/bad.txt %t/bt.txt | FileCheck --check-prefix=BAD %s
# BAD:      #0 0x{{[0-9a-f]+}}{{$}}
# BAD-NEXT: #1 {{[0-9a-f]+}} {{$}}
# BAD-NEXT: #2 in {{[0-9a-f]+}} renamed (other.o)
# BAD-NEXT: #3 0x10{{$}}
#
# RUN: not linklab -symbolicate-with %t/nope.txt %t/bt.txt 2>&1 | FileCheck --check-prefix=NOTABLE %s
# A missing backtrace fails after the ones before it are printed.
# RUN: not linklab -symbolicate-with %t/symtab.txt %t/bt.txt %t/nope.txt 2>%t/err.txt | FileCheck --check-prefix=NOTRACE %s
# RUN: FileCheck --check-prefix=NOTABLE %s < %t/err.txt
# RUN: not linklab -symbolicate-with %t %t/bt.txt 2>&1 | FileCheck --check-prefix=DIR %s
# NOTABLE: '{{.*}}nope.txt': No such file or directory
# NOTRACE: #0 0x{{[0-9a-f]+}} main ({{.*}}main.o)
# DIR: '{{.*}}': Is a directory

        .text
        .globl  main
        .type   main,@function
main:
        call    helper
        xorl    %eax, %eax
        retq
        .globl  helper
helper:
        retq
