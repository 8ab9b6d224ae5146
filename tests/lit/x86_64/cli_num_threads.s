# llvm-jitlink's -num-threads=N is accepted (linklab links on one thread, so N
# changes nothing), and a value that is not a number is refused, as by llvm-jitlink.
# RUN: llvm-mc -triple=x86_64-unknown-linux -filetype=obj -o %t.o %s
# RUN: linklab -noexec -no-process-syms -num-threads=0 -check=%s %t.o
# RUN: linklab -noexec -no-process-syms -num-threads 4 %t.o
# RUN: not linklab -noexec -no-process-syms -num-threads=abc %t.o 2>&1 | FileCheck %s
# CHECK: {{.*}}'abc'

# jitlink-check: *{4}value = 42

	.text
	.globl	main
main:
	xorl	%eax, %eax
	retq

	.data
	.globl	value
value:
	.long	42
