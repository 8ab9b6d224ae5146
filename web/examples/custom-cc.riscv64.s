# scaled_sum: 3*a + b with a in t4, b in t5, result in t6
# (callconv spec "args:t4,t5;ret:t6").
        .text
        .globl  scaled_sum
        .type   scaled_sum,@function
scaled_sum:
        slli    t6, t4, 1
        add     t6, t6, t4
        add     t6, t6, t5
        ret
        .size   scaled_sum, .-scaled_sum

# scaled_sum_c: the LP64D adapter C code calls.
        .globl  scaled_sum_c
        .type   scaled_sum_c,@function
scaled_sum_c:
        addi    sp, sp, -16
        sd      ra, 8(sp)
        mv      t4, a0
        mv      t5, a1
        call    scaled_sum
        mv      a0, t6
        ld      ra, 8(sp)
        addi    sp, sp, 16
        ret
        .size   scaled_sum_c, .-scaled_sum_c
