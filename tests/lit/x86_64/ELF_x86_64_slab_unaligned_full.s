# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 lays the block past its page without a word
# At an unaligned slab address, a block whose alignment padding pushes the
# segment past the page it was measured into is an error naming the
# segment, the bytes it needs and the room it has.
# RUN: llvm-mc -triple=x86_64-unknown-linux -filetype=obj -o %t.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x1 \
# RUN:   -slab-page-size 4096 %t.o 2>&1 | FileCheck %s
# CHECK: segment RW- at 0x1 is not aligned to 16, and its blocks aligned on their addresses need 0x1007 bytes, more than the 0x1000 it has

	.text
	.globl	main
main:
	retq

	.data
	.p2align 4
	.globl	big
big:
	.zero	4088
