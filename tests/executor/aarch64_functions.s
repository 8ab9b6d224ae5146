// Functions the executor tests call, one per 256-byte slot (see x86_64_functions.s).
        .text
        .p2align 8
f_add:                                  // slot 0: x0 + x1
        add     x0, x0, x1
        ret
        .p2align 8
f_hello:                                // slot 1: semihosting SYS_WRITE0("hello\n"), return 7
        mov     x0, #4
        adr     x1, msg0
        hlt     #0xf000
        mov     x0, #7
        ret
        .p2align 8
f_loop:                                 // slot 2
        b       f_loop
        .p2align 8
f_badread:                              // slot 3: load from unmapped 0xdead000 at +8
        movz    x0, #0xd000
        movk    x0, #0xdea, lsl #16
        ldr     x0, [x0]
        ret
        .p2align 8
f_illegal:                              // slot 4: udf at +0
        udf     #0
        .p2align 8
f_jump:                                 // slot 5
        movz    x0, #0x1234, lsl #16
        br      x0
        .p2align 8
f_eat:                                  // slot 6
        mov     w1, #1
1:      strb    w1, [x0]
        add     x0, x0, #4096
        b       1b
        .p2align 8
f_exit:                                 // slot 7: Linux exit_group(3) via svc
        mov     x0, #3
        mov     x8, #94
        svc     #0
        udf     #0
        .p2align 8
f_wrcode:                               // slot 8: store into own code at +4
        adr     x0, f_wrcode
        strb    wzr, [x0]
        ret
        .p2align 8
f_linuxwrite:                           // slot 9: Linux write(1, "hello\n", 6) via svc, return 7
        mov     x0, #1
        adr     x1, msg
        mov     x2, #6
        mov     x8, #64
        svc     #0
        mov     x0, #7
        ret
        .p2align 8
f_fadd:                                 // slot 10: d0 + d1
        fadd    d0, d0, d1
        ret
        .p2align 8
f_stackarg:                             // slot 11: the first stack argument
        ldr     x0, [sp]
        ret
        .p2align 8
f_syscall:                              // slot 12: a Linux system call, number and arguments
        svc     #0                      // as the caller set them (x8, x0-x5)
        ret
        .p2align 8
f_poke:                                 // slot 13: store arg1's low 32 bits at arg0
        str     w1, [x0]
        ret
        .p2align 8
f_deadread:                             // slot 14: a load from unmapped 0x100 into the
        mov     x8, #0x100              // zero register, at +4; returns 0
        ldr     wzr, [x8]
        mov     x0, #0
        ret
msg:    .ascii  "hello\n"
msg0:   .asciz  "hello\n"
