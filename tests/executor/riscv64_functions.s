# Functions the executor tests call, one per 256-byte slot (see x86_64_functions.s).
# Assembled without the C extension, so every instruction is 4 bytes.
        .text
        .p2align 8
f_add:                                  # slot 0: a0 + a1
        add     a0, a0, a1
        ret
        .p2align 8
f_hello:                                # slot 1: semihosting SYS_WRITE0("hello\n"), return 7
        li      a0, 4
        lla     a1, msg0
        slli    x0, x0, 0x1f
        ebreak
        srai    x0, x0, 7
        li      a0, 7
        ret
        .p2align 8
f_loop:                                 # slot 2
        j       f_loop
        .p2align 8
f_badread:                              # slot 3: load from unmapped 0xdead000 at +4
        lui     a0, 0xdead
        ld      a0, 0(a0)
        ret
        .p2align 8
f_illegal:                              # slot 4: unimp at +0
        unimp
        .p2align 8
f_jump:                                 # slot 5
        lui     a0, 0x12340
        jr      a0
        .p2align 8
f_eat:                                  # slot 6
        li      t0, 1
        li      t1, 4096
1:      sb      t0, 0(a0)
        add     a0, a0, t1
        j       1b
        .p2align 8
f_exit:                                 # slot 7: Linux exit_group(3) via ecall
        li      a0, 3
        li      a7, 94
        ecall
        unimp
        .p2align 8
f_wrcode:                               # slot 8: store into own code at +4
        auipc   a0, 0
        sb      zero, 0(a0)
        ret
        .p2align 8
f_linuxwrite:                           # slot 9: Linux write(1, "hello\n", 6) via ecall, return 7
        li      a0, 1
        lla     a1, msg
        li      a2, 6
        li      a7, 64
        ecall
        li      a0, 7
        ret
        .p2align 8
f_fadd:                                 # slot 10: fa0 + fa1
        fadd.d  fa0, fa0, fa1
        ret
        .p2align 8
f_stackarg:                             # slot 11: the first stack argument
        ld      a0, 0(sp)
        ret
        .p2align 8
f_syscall:                              # slot 12: a Linux system call, number and arguments
        ecall                           # as the caller set them (a7, a0-a5)
        ret
        .p2align 8
f_poke:                                 # slot 13: store arg1's low 32 bits at arg0
        sw      a1, 0(a0)
        ret
        .p2align 8
f_deadread:                             # slot 14: a load from unmapped 0x100 into the
        lw      zero, 0x100(zero)       # zero register, at +0; returns 0
        li      a0, 0
        ret
msg:    .ascii  "hello\n"
msg0:   .asciz  "hello\n"
