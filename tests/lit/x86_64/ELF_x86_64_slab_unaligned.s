# A slab at an address no block alignment divides (-slab-address 0x1): each
# segment starts there, and each block is aligned on its own address inside
# it, as JITLink's BasicLayout does (LLVM's i386 16-bit relocation test links
# this way). Both linkers give the same addresses.
# RUN: llvm-mc -triple=x86_64-unknown-linux -filetype=obj -o %t.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x1 \
# RUN:   -slab-page-size 4096 -check %s %t.o

# The data segment comes first, at 0x1: the byte's block is 8-aligned
# (the section's alignment), the quad 8 bytes after it.
# jitlink-check: byte = 0x8
# jitlink-check: quad = 0x10
# jitlink-check: *{8}quad = aligned16
# The code segment is a page up, at 0x1001: .text is 4-aligned, the other
# section 16-aligned.
# jitlink-check: main = 0x1004
# jitlink-check: aligned16 = 0x1010

	.text
	.globl	main
	.type	main,@function
main:
	xorl	%eax, %eax
	retq

	.section .text.aligned,"ax",@progbits
	.globl	aligned16
	.p2align 4
aligned16:
	retq

	.data
	.p2align 3
	.globl	byte
byte:
	.byte	1
	.globl	quad
	.p2align 3
quad:
	.quad	aligned16
