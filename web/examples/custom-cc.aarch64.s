// scaled_sum: 3*a + b with a in x9, b in x10, result in x11
// (callconv spec "args:x9,x10;ret:x11").
        .text
        .globl  scaled_sum
        .type   scaled_sum,%function
scaled_sum:
        add     x11, x9, x9, lsl #1
        add     x11, x11, x10
        ret
        .size   scaled_sum, .-scaled_sum

// scaled_sum_c: the AAPCS64 adapter C code calls.
        .globl  scaled_sum_c
        .type   scaled_sum_c,%function
scaled_sum_c:
        stp     x29, x30, [sp, #-16]!
        mov     x9, x0
        mov     x10, x1
        bl      scaled_sum
        mov     x0, x11
        ldp     x29, x30, [sp], #16
        ret
        .size   scaled_sum_c, .-scaled_sum_c
