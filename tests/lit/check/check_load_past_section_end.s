# A load may run past its symbol's section: as llvm-jitlink's checker, which
# reads the linked memory itself, the bytes are the next section's in the
# segment, then zeros (padding, and the rest of the segment's page).
# RUN: llvm-mc -triple=x86_64-unknown-linux -filetype=obj -o %t.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t.o

# first's 4 bytes, then second's (the next section, 4-aligned):
# jitlink-check: *{8}first = 0x2222222211111111
# second's 4 bytes, then the padding before the 16-aligned last:
# jitlink-check: *{8}second = 0x22222222
# last ends the segment: the rest of its page reads as zeros.
# jitlink-check: *{8}last = 0x33333333

	.text
	.globl	main
main:
	retq

	.section .data.a,"aw",@progbits
	.p2align 3
	.globl	first
first:
	.long	0x11111111

	.section .data.b,"aw",@progbits
	.p2align 2
	.globl	second
second:
	.long	0x22222222

	.section .data.c,"aw",@progbits
	.p2align 4
	.globl	last
last:
	.long	0x33333333
