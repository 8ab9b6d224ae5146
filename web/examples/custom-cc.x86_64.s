# scaled_sum: 3*a + b with a in r10, b in r11, result in r9
# (callconv spec "args:r10,r11;ret:r9").
        .text
        .globl  scaled_sum
        .type   scaled_sum,@function
scaled_sum:
        leaq    (%r10,%r10,2), %r9
        addq    %r11, %r9
        retq
        .size   scaled_sum, .-scaled_sum

# scaled_sum_c: the SysV-ABI adapter C code calls.
        .globl  scaled_sum_c
        .type   scaled_sum_c,@function
scaled_sum_c:
        movq    %rdi, %r10
        movq    %rsi, %r11
        callq   scaled_sum
        movq    %r9, %rax
        retq
        .size   scaled_sum_c, .-scaled_sum_c
