# An object nothing references (cli_show_es.s): it stays unlinked.
	.text
	.globl	unused
	.type	unused,@function
unused:
	retq
