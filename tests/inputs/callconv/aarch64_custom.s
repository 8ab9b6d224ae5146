// AArch64 twins of x86_64_custom.s: arguments where a spec puts them,
// not where AAPCS64 does.
        .text
        .globl add3             // i64(i64,i64,i64)  gpr:x9,x10,x11;ret:x12
add3:   add     x12, x9, x10, lsl #1
        add     x11, x11, x11, lsl #1
        add     x12, x12, x11
        ret

        .globl fsub2            // f64(f64,f64)  fpr:v20,v21;ret_fpr:v22
fsub2:  fsub    d22, d20, d21
        ret

        .globl wsum             // a in x9, b and c on the stack, result in x12
wsum:   ldr     x13, [sp]
        add     x12, x9, x13, lsl #1
        ldr     x13, [sp, #8]
        add     x13, x13, x13, lsl #1
        add     x12, x12, x13
        ret

        .globl inc128           // i128(i128)  args:x9+x10;ret:x12+x13
inc128: adds    x12, x9, #1
        adc     x13, x10, xzr
        ret

        .globl mkpair           // void(sret(16:8),i64)  gpr:x9 (sret pointer in x8)
mkpair: str     x9, [x8]
        add     x10, x9, x9
        str     x10, [x8, #8]
        ret

        .globl mk3              // void(sret(24:8),i64)  gpr:x9 (sret pointer in x8)  -> {b, 2b, 3b}
mk3:    str     x9, [x8]
        add     x10, x9, x9
        str     x10, [x8, #8]
        add     x10, x10, x9
        str     x10, [x8, #16]
        ret

        .globl bsum16           // i64(byval(16:8))  gpr:x9,x10;ret:x12  -> lo + 3 hi
bsum16: add     x10, x10, x10, lsl #1
        add     x12, x9, x10
        ret

        .globl bsum24           // i64(byval(24:8)), AAPCS64: x0 points to a copy
bsum24: ldp     x1, x2, [x0]
        ldr     x3, [x0, #16]
        add     x0, x1, x2, lsl #1
        add     x3, x3, x3, lsl #1
        add     x0, x0, x3
        ret

        .globl fbdiff           // i64(i64,i64)  ret:x12 (arguments left to AAPCS64: x0, x1)
fbdiff: sub     x12, x0, x1
        ret

        .globl clobber          // AAPCS64 arguments, but x19 and x20 are not preserved
clobber:
        mov     x19, #0
        mov     x20, #1
        ret

        .globl outer            // i64(i64,i64)  gpr:x14,x15;ret:x0  -> add3(a, b, a)
outer:  stp     x29, x30, [sp, #-16]!
        mov     x9, x14
        mov     x10, x15
        mov     x11, x14
        bl      add3
        mov     x0, x12
        ldp     x29, x30, [sp], #16
        ret

        .section .linklab.callconv,"",%progbits
        .asciz  "add3=i64(i64,i64,i64);gpr:x9,x10,x11;ret:x12"
        .asciz  "fsub2=f64(f64,f64);fpr:v20,v21;ret_fpr:v22"
        .asciz  "wsum=i64(i64,i64,i64);gpr:x9;ret:x12"
        .asciz  "clobber=i64(i64);csr:x21,x22,x23,x24,x25,x26,x27,x28,v8,v9,v10,v11,v12,v13,v14,v15"
        .asciz  "outer=i64(i64,i64);gpr:x14,x15;ret:x0"
        .asciz  "inc128=i128(i128);args:x9+x10;ret:x12,x13"
        .asciz  "bsum16=i64(byval(16:8));gpr:x9,x10;ret:x12"
        .asciz  "mk3=void(sret(24:8),i64);gpr:x9"
