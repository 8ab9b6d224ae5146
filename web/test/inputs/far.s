# Reaches `far` with a 32-bit PC-relative load: defining far as an absolute
# symbol 2^40 bytes away makes the fixup out of range.
        .text
        .globl  main
        .type   main,@function
main:
        movl    far(%rip), %eax
        retq
