# An archive member nothing needs (cli_all_load.s).
	.text
	.globl	bar
	.type	bar,@function
bar:
	movl	$1, %eax
	retq
