# llvm-jitlink's -sectcreate=SECTION,FILE@SYMBOL=OFFSET,...: a read-only
# section holding FILE's bytes, with symbols at the offsets given (0x hex, 0
# octal, else decimal). It links when a lookup needs one of its symbols, as
# main's references do here.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux -filetype=obj -o %t/main.o %s
# RUN: printf 'ZZ**abcdefgh' > %t/data.txt
# RUN: linklab -noexec -no-process-syms -sectcreate __data,%t/data.txt@foo=0,bar=0x4,baz=010 -check=%s %t/main.o
# RUN: linklab -noexec -no-process-syms -sectcreate __data,%t/data.txt@foo=0,bar=4,baz=8 \
# RUN:   -show-graphs=sect %t/main.o | FileCheck --check-prefix=GRAPH %s
# Bad arguments, in llvm-jitlink's words:
# RUN: not linklab -noexec -no-process-syms -sectcreate __data,%t/data.txt@foo=x %t/main.o 2>&1 \
# RUN:   | FileCheck --check-prefix=BADINT %s
# RUN: not linklab -noexec -no-process-syms -sectcreate %t/data.txt %t/main.o 2>&1 \
# RUN:   | FileCheck --check-prefix=NOFILE %s
# RUN: not linklab -noexec -no-process-syms -sectcreate __data,%t/missing.txt@foo=0 %t/main.o 2>&1 \
# RUN:   | FileCheck --check-prefix=MISSING %s

# jitlink-check: *{4}foo = 0x2a2a5a5a
# jitlink-check: *{4}bar = 0x64636261
# jitlink-check: *{4}baz = 0x68676665
# jitlink-check: foo[3:0] = 0

# GRAPH: section __data:
# GRAPH: block 0x{{[0-9a-f]+}} size = 0x0000000c, align = 16, alignment-offset = 0

# BADINT: In -sectcreate=__data,{{.*}}data.txt@foo=x, x is not a valid integer
# NOFILE: In -sectcreate={{.*}}data.txt, filename component cannot be empty
# MISSING: missing.txt

	.text
	.globl	main
	.type	main,@function
main:
	movl	foo(%rip), %eax
	addl	bar(%rip), %eax
	addl	baz(%rip), %eax
	retq
