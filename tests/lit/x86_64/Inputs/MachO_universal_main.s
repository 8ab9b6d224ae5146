# An x86-64 object that names the link's arch for MachO_universal.s's universal inputs.
	.section	__TEXT,__text,regular,pure_instructions
	.globl	_start_here
	.p2align	4, 0x90
_start_here:
	movl	_slice_value(%rip), %eax
	retq

.subsections_via_symbols
