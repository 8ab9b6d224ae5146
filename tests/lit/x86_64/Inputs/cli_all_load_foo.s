# An archive member main needs (cli_all_load.s).
	.text
	.globl	foo
	.type	foo,@function
foo:
	xorl	%eax, %eax
	retq
