# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 accepts an offset past the file's end (and links nothing there)
# -sectcreate: a symbol's offset past the end of the file's bytes is an
# error naming the symbol, the offset and the file's size.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux -filetype=obj -o %t/main.o %s
# RUN: printf 'abcd' > %t/data.txt
# RUN: linklab -noexec -no-process-syms -sectcreate __data,%t/data.txt@end=4 %t/main.o
# RUN: not linklab -noexec -no-process-syms -sectcreate __data,%t/data.txt@past=5 %t/main.o 2>&1 \
# RUN:   | FileCheck %s
# CHECK: -sectcreate: symbol 'past' at offset 0x5 is past the end of {{.*}}data.txt (0x4 bytes)

	.text
	.globl	main
	.type	main,@function
main:
	leaq	end(%rip), %rax
	retq
