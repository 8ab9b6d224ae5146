# The arm64 slice of MachO_universal.s.
# jitlink-check: *{4}_slice_value = 0xa64

	.section	__TEXT,__text,regular,pure_instructions
	.globl	_main
	.p2align	2
_main:
	mov	w0, #0
	ret

	.section	__DATA,__data
	.globl	_slice_value
	.p2align	2
_slice_value:
	.long	0xa64

.subsections_via_symbols
