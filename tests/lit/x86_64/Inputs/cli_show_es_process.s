# main calls the process's strlen and returns 0 (cli_show_es.s).
	.text
	.globl	main
	.type	main,@function
main:
	pushq	%rax
	leaq	str(%rip), %rdi
	callq	strlen@PLT
	xorl	%eax, %eax
	popq	%rcx
	retq

	.section .rodata
str:
	.asciz	"abc"
