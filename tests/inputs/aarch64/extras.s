// Relocations linklab links and llvm-jitlink-22 does not (16-bit data,
// checked MOVW, ADRP _NC, GOT literal loads, TLS local/initial exec and
// descriptors). TLS image: .tdata (tdv, 4 bytes) then .tbss (tbv at image
// offset 8), starting 16 bytes past TP: TPOFF(tdv) = 16, TPOFF(tbv) = 24.
        .text
        .globl  main
        .p2align 2
main:   ret
        .globl  movw_g1_checked
movw_g1_checked: movz x0, #:abs_g1:ext_data
        .globl  pg_hi21_nc
pg_hi21_nc: adrp x0, :pg_hi21_nc:var
        .globl  got_ld_prel19
got_ld_prel19: ldr x0, :got:ext_data
        .globl  tprel_hi12
tprel_hi12: add x0, x0, :tprel_hi12:tbv
        .globl  tprel_lo12
tprel_lo12: add x0, x0, :tprel_lo12:tbv
        .globl  tprel_lo12_nc
tprel_lo12_nc: add x0, x0, :tprel_lo12_nc:tdv
        .globl  tprel_g1
tprel_g1: movz x0, #:tprel_g1:tbv
        .globl  tprel_g0_nc
tprel_g0_nc: movk x0, #:tprel_g0_nc:tbv
        .globl  gottprel_page
gottprel_page: adrp x0, :gottprel:tdv
        .globl  gottprel_lo12
gottprel_lo12: ldr x0, [x0, :gottprel_lo12:tdv]
        .globl  tlsdesc_page
tlsdesc_page: adrp x0, :tlsdesc:tbv
        .globl  tlsdesc_ld
tlsdesc_ld: ldr x1, [x0, :tlsdesc_lo12:tbv]
        .globl  tlsdesc_add
tlsdesc_add: add x0, x0, :tlsdesc_lo12:tbv
        .tlsdesccall tbv
        blr     x1

        .data
        .p2align 4
        .skip   0x130
        .globl  var
var:    .quad   0
        .globl  abs16
abs16:  .hword  ext_small
        .globl  prel16
prel16: .hword  var - .

        .section .tdata,"awT",@progbits
        .p2align 2
tdv:    .word   7
        .section .tbss,"awT",@nobits
        .p2align 3
tbv:    .quad   0
