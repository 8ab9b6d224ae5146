# Functions the executor tests call, one per 256-byte slot so the test finds
# slot N at .text+N*0x100 without a symbol table. Position-independent.
        .text
        .p2align 8
f_add:                                  # slot 0: rdi + rsi
        leaq    (%rdi,%rsi), %rax
        retq
        .p2align 8
f_hello:                                # slot 1: write(1, "hello\n", 6), return 7
        leaq    msg(%rip), %rsi
        movl    $1, %edi
        movl    $6, %edx
        movl    $1, %eax
        syscall
        movl    $7, %eax
        retq
        .p2align 8
f_loop:                                 # slot 2: never returns
        jmp     f_loop
        .p2align 8
f_badread:                              # slot 3: load from unmapped 0xdead000 at +5
        movl    $0xdead000, %eax
        movq    (%rax), %rax
        retq
        .p2align 8
f_illegal:                              # slot 4: ud2 at +0
        ud2
        .p2align 8
f_jump:                                 # slot 5: jump to unmapped 0x12340000
        movl    $0x12340000, %eax
        jmpq    *%rax
        .p2align 8
f_eat:                                  # slot 6: touch a page at a time from rdi on
1:      movb    $1, (%rdi)
        addq    $4096, %rdi
        jmp     1b
        .p2align 8
f_exit:                                 # slot 7: exit_group(3)
        movl    $3, %edi
        movl    $231, %eax
        syscall
        ud2
        .p2align 8
f_wrcode:                               # slot 8: store into its own (R-X) code at +7
        leaq    f_wrcode(%rip), %rax
        movb    $0, (%rax)
        retq
        .p2align 8
f_linuxwrite:                           # slot 9: same as slot 1 on x86-64
        jmp     f_hello
        .p2align 8
f_fadd:                                 # slot 10: xmm0 + xmm1 (double)
        addsd   %xmm1, %xmm0
        retq
        .p2align 8
f_stackarg:                             # slot 11: the first stack argument (above the return address)
        movq    8(%rsp), %rax
        retq
        .p2align 8
f_syscall:                              # slot 12: a Linux system call, number and arguments
        syscall                         # as the caller set them (rax, rdi, rsi, rdx, r10, r8, r9)
        retq
        .p2align 8
f_poke:                                 # slot 13: store arg1's low 32 bits at arg0
        movl    %esi, (%rdi)
        retq
        .p2align 8
f_deadread:                             # slot 14: a load from unmapped 0x100 whose value is
        movl    0x100, %eax             # overwritten unused, at +0; returns 0
        xorl    %eax, %eax
        retq
msg:    .ascii  "hello\n"
