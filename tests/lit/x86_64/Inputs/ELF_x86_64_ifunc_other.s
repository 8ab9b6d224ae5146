# Another object of ELF_x86_64_ifunc.s: references f from outside (a call,
# a GOT load, a data pointer) and defines its own IFUNC g.
        .text
        .globl  other_user
        .type   other_user,@function
other_user:
# jitlink-check: decode_operand(other_call_f, 0) = f - next_pc(other_call_f)
        .globl  other_call_f
other_call_f:
        callq   f
# jitlink-check: *{8}got_addr(other.o, f) = f
        .globl  other_load_f
other_load_f:
        movq    f@GOTPCREL(%rip), %rax
        callq   g
        retq
        .size   other_user, .-other_user

impl_g:
        xorl    %eax, %eax
        retq

        .globl  resolve_g
        .type   resolve_g,@function
resolve_g:
        leaq    impl_g(%rip), %rax
        retq

        .globl  g
        .type   g,@gnu_indirect_function
        .set    g, resolve_g

        .data
# jitlink-check: *{8}other_f_ptr = f
        .globl  other_f_ptr
other_f_ptr:
        .quad   f
