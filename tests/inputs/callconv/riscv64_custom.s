# RISC-V twins of x86_64_custom.s: arguments where a spec puts them, not
# where LP64D does.
        .text
        .globl add3             # i64(i64,i64,i64)  gpr:t0,t2,t4;ret:t5
add3:   slli    t5, t2, 1
        add     t5, t5, t0
        slli    t6, t4, 1
        add     t6, t6, t4
        add     t5, t5, t6
        ret

        .globl fsub2            # f64(f64,f64)  fpr:ft4,ft5;ret_fpr:ft6
fsub2:  fsub.d  ft6, ft4, ft5
        ret

        .globl wsum             # a in t0, b and c on the stack, result in t5
wsum:   ld      t6, 0(sp)
        slli    t6, t6, 1
        add     t5, t0, t6
        ld      t6, 8(sp)
        slli    t2, t6, 1
        add     t6, t6, t2
        add     t5, t5, t6
        ret

        .globl inc128           # i128(i128)  args:t0+t2;ret:t5+t6
inc128: addi    t5, t0, 1
        sltu    t6, t5, t0
        add     t6, t6, t2
        ret

        .globl mkpair           # void(sret(16:8),i64)  gpr:t0,t2 (sret pointer is the first integer argument)
mkpair: sd      t2, 0(t0)
        add     t4, t2, t2
        sd      t4, 8(t0)
        ret

        .globl mk3              # void(sret(24:8),i64)  gpr:t0,t2  -> {b, 2b, 3b}
mk3:    sd      t2, 0(t0)
        add     t4, t2, t2
        sd      t4, 8(t0)
        add     t4, t4, t2
        sd      t4, 16(t0)
        ret

        .globl bsum16           # i64(byval(16:8))  gpr:t0,t2;ret:t5  -> lo + 3 hi
bsum16: slli    t5, t2, 1
        add     t5, t5, t2
        add     t5, t5, t0
        ret

        .globl bsum24           # i64(byval(24:8)), LP64D: a0 points to a copy
bsum24: ld      t0, 0(a0)
        ld      t1, 8(a0)
        ld      t2, 16(a0)
        slli    t1, t1, 1
        add     a0, t0, t1
        slli    t4, t2, 1
        add     t2, t2, t4
        add     a0, a0, t2
        ret

        .globl fbdiff           # i64(i64,i64)  ret:t5 (arguments left to LP64D: a0, a1)
fbdiff: sub     t5, a0, a1
        ret

        .globl clobber          # LP64D arguments, but s1 and s2 are not preserved
clobber:
        li      s1, 0
        li      s2, 1
        ret

        .globl outer            # i64(i64,i64)  gpr:t4,t6;ret:a0  -> add3(a, b, a)
outer:  addi    sp, sp, -16
        sd      ra, 8(sp)
        mv      t0, t4
        mv      t2, t6
        call    add3
        mv      a0, t5
        ld      ra, 8(sp)
        addi    sp, sp, 16
        ret

        .section .linklab.callconv,"",@progbits
        .asciz  "add3=i64(i64,i64,i64);gpr:t0,t2,t4;ret:t5"
        .asciz  "fsub2=f64(f64,f64);fpr:ft4,ft5;ret_fpr:ft6"
        .asciz  "wsum=i64(i64,i64,i64);gpr:t0;ret:t5"
        .asciz  "clobber=i64(i64);csr:s3,s4,s5,s6,s7,s8,s9,s10,s11,fs0,fs1,fs2,fs3,fs4,fs5,fs6,fs7,fs8,fs9,fs10,fs11"
        .asciz  "outer=i64(i64,i64);gpr:t4,t6;ret:a0"
        .asciz  "inc128=i128(i128);args:t0+t2;ret:t5,t6"
        .asciz  "bsum16=i64(byval(16:8));gpr:t0,t2;ret:t5"
        .asciz  "mk3=void(sret(24:8),i64);gpr:t0,t2"
