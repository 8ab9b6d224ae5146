# Functions that take their arguments where a calling-convention spec puts
# them, not where SysV does. tests/unit/callconv_exec_test.cpp calls them
# through plans; caller.c reaches the ones listed in .linklab.callconv
# through bridge thunks. Each computes something order-sensitive
# (a + 2b + 3c) so a swapped argument shows.
        .text
        .globl add3             # i64(i64,i64,i64)  gpr:rcx,r8,r11;ret:rax
add3:   lea     (%rcx,%r8,2), %rax
        lea     (%r11,%r11,2), %r11
        add     %r11, %rax
        ret

        .globl fsub2            # f64(f64,f64)  fpr:xmm3,xmm5;ret_fpr:xmm2  -> a - b
fsub2:  movapd  %xmm3, %xmm2
        subsd   %xmm5, %xmm2
        ret

        .globl wsum             # i64(i64,i64,i64): a in rcx, b and c on the stack, result in rdx
wsum:   mov     8(%rsp), %rdx
        lea     (%rcx,%rdx,2), %rdx
        mov     16(%rsp), %rax
        lea     (%rax,%rax,2), %rax
        add     %rax, %rdx
        ret

        .globl inc128           # i128(i128)  args:rcx+r8;ret:rax+rdx  -> v + 1
inc128: mov     %rcx, %rax
        mov     %r8, %rdx
        add     $1, %rax
        adc     $0, %rdx
        ret

        .globl mkpair           # void(sret(16:8),i64)  gpr:r10,rcx  -> {b, 2b}
mkpair: mov     %rcx, (%r10)
        lea     (%rcx,%rcx), %rax
        mov     %rax, 8(%r10)
        ret

        .globl mk3              # void(sret(24:8),i64)  gpr:r10,rcx  -> {b, 2b, 3b}; leaves 3b in rax,
mk3:    mov     %rcx, (%r10)    # not the sret pointer SysV callers may read there
        lea     (%rcx,%rcx), %rax
        mov     %rax, 8(%r10)
        lea     (%rcx,%rcx,2), %rax
        mov     %rax, 16(%r10)
        ret

        .globl bsum16           # i64(byval(16:8))  gpr:r9,r10;ret:rax  -> lo + 3 hi
bsum16: lea     (%r10,%r10,2), %rax
        add     %r9, %rax
        ret

        .globl bsum24           # i64(byval(24:8)), copied to the stack as SysV does  -> a + 2b + 3c
bsum24: mov     8(%rsp), %rax
        mov     16(%rsp), %rcx
        lea     (%rax,%rcx,2), %rax
        mov     24(%rsp), %rcx
        lea     (%rcx,%rcx,2), %rcx
        add     %rcx, %rax
        ret

        .globl fbdiff           # i64(i64,i64)  ret:rcx  (arguments left to SysV: rdi, rsi)  -> a - b
fbdiff: mov     %rdi, %rcx
        sub     %rsi, %rcx
        ret

        .globl clobber          # i64(i64), SysV arguments, but rbx and r12 are not preserved
clobber:
        xor     %ebx, %ebx
        mov     $1, %r12d
        mov     %rdi, %rax
        ret

        .globl outer            # i64(i64,i64)  gpr:r10,r11;ret:rax  -> add3(a, b, a), called in add3's convention
outer:  sub     $8, %rsp
        mov     %r10, %rcx
        mov     %r11, %r8
        mov     %r10, %r11
        call    add3
        add     $8, %rsp
        ret

        .section .linklab.callconv,"",@progbits
        .asciz  "add3=i64(i64,i64,i64);gpr:rcx,r8,r11;ret:rax"
        .asciz  "fsub2=f64(f64,f64);fpr:xmm3,xmm5;ret_fpr:xmm2"
        .asciz  "wsum=i64(i64,i64,i64);gpr:rcx;ret:rdx"
        .asciz  "clobber=i64(i64);csr:rbp,r13,r14,r15"
        .asciz  "outer=i64(i64,i64);gpr:r10,r11;ret:rax"
        .asciz  "inc128=i128(i128);args:rcx+r8;ret:rax,rdx"
        .asciz  "bsum16=i64(byval(16:8));gpr:r9,r10;ret:rax"
        .asciz  "mk3=void(sret(24:8),i64);gpr:r10,rcx"
