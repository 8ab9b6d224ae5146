// One instance of each relocation family llvm-jitlink-22 also links, so the
// unit tests can compare graph dumps with it and decode every fixed-up
// instruction with llvm-mc. Labels name the relocation being tested.
        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

        .globl  call26
call26: bl      callee
        .globl  jump26
jump26: b       callee
        .globl  call26_ext
call26_ext: bl  ext_func
        .globl  pg_hi21
pg_hi21: adrp   x0, var
        .globl  add_lo12
add_lo12: add   x0, x0, :lo12:var + 4
        .globl  ldst8
ldst8:  ldrb    w1, [x0, :lo12:var + 1]
        .globl  ldst16
ldst16: ldrh    w1, [x0, :lo12:var + 2]
        .globl  ldst32
ldst32: ldr     w1, [x0, :lo12:var + 4]
        .globl  ldst64
ldst64: ldr     x1, [x0, :lo12:var + 8]
        .globl  ldst128
ldst128: ldr    q1, [x0, :lo12:var]
        .globl  adr_lo21
adr_lo21: adr   x2, var + 3
        .globl  got_page
got_page: adrp  x3, :got:ext_data
        .globl  got_lo12
got_lo12: ldr   x3, [x3, :got_lo12:ext_data]
        .globl  gotpage_lo15
gotpage_lo15: ldr x3, [x3, :gotpage_lo15:ext_data]
        .globl  movw_g0
movw_g0: movz   x4, #:abs_g0_nc:ext_data
        .globl  movw_g1
movw_g1: movk   x4, #:abs_g1_nc:ext_data
        .globl  movw_g2
movw_g2: movk   x4, #:abs_g2_nc:ext_data
        .globl  movw_g3
movw_g3: movk   x4, #:abs_g3:ext_data
        .globl  condbr19
condbr19: b.ne  callee
        .globl  cbz19
cbz19:  cbz     x5, main
        .globl  tstbr14
tstbr14: tbnz   w6, #7, callee
        .globl  ld_prel19
ld_prel19: ldr  x7, lit
        .globl  callee
callee: ret

        .section .rodata,"a",@progbits
        .p2align 3
        .globl  lit
lit:    .quad   0x0123456789abcdef

        .data
        .skip   0x7d0           // puts var mid-page
        .p2align 4
        .globl  var
var:    .quad   1, 2
        .globl  abs64
abs64:  .xword  ext_data + 16
        .globl  abs32
abs32:  .word   callee
        .globl  prel32
prel32: .word   ext_func - .
        .globl  prel64
prel64: .xword  var - . + 8
