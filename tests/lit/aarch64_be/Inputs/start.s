// _start for the qemu-aarch64_be reference build of freestanding.c (linked
// with .tdata at 0x300000): the stack exec leaves holds argc, then argv;
// main's value is the exit status. TLS variant I: TPIDR_EL0 points 16 bytes
// (the TCB) before the TLS block, here the .tdata image itself.
        .text
        .globl  _start
        .p2align 2
_start:
        mov     x9, #0xfff0
        movk    x9, #0x2f, lsl #16
        msr     tpidr_el0, x9
        ldr     x0, [sp]
        add     x1, sp, #8
        bl      main
        mov     x8, #93
        svc     #0
