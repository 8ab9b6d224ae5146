# TLS relocations (variant I: an 8-byte TCB at TP, then the TLS block) and
# the Thumb conditional branch R_ARM_THM_JUMP19 (B<c>.W, +-1 MiB), which
# Debian's armhf libc.a uses: TLS_LE32 is TPOFF(S) + A, TLS_IE32 reaches a
# GOT entry holding TPOFF(S), TLS_GD32 a GOT pair {module 1, DTPOFF(S)},
# TLS_LDM32 the pair {1, 0}, TLS_LDO32 is DTPOFF(S) = TPOFF(S) - 8. A
# B<c>.W to a symbol outside the graph goes through a Thumb stub.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 links no Arm TLS relocation nor R_ARM_THM_JUMP19.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -filetype=obj -o %t/tls.o %s
# RUN: llvm-readelf -r %t/tls.o | FileCheck --check-prefix=RELOCS %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -abs ext=0x10002001 -check %s %t/tls.o
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -filetype=obj --defsym FAR=1 -o %t/far.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 4Mb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -abs ext=0x10002001 %t/far.o 2>&1 | FileCheck --check-prefix=FAR %s
#
# RELOCS-DAG: R_ARM_TLS_LE32{{ }}
# RELOCS-DAG: R_ARM_TLS_IE32{{ }}
# RELOCS-DAG: R_ARM_TLS_GD32{{ }}
# RELOCS-DAG: R_ARM_TLS_LDM32{{ }}
# RELOCS-DAG: R_ARM_TLS_LDO32{{ }}
# RELOCS-DAG: R_ARM_THM_JUMP19{{ }}
# FAR: is out of range of Thumb_Jump19 fixup at address
# FAR-SAME: Thumb_Jump19 against {{.*}}: value 0x{{[0-9a-f]+}} out of range [-0x100000, 0xfffff]

        .syntax unified
        .text
        .thumb
        .globl  main
        .p2align 2
        .type   main, %function
        .thumb_func
main:
# jitlink-check: (*{2}br_local)[5:0] = 0
# jitlink-check: (*{2}(br_local + 2))[10:0] = ((thumb_fn - (br_local + 4)) >> 1)[10:0]
# jitlink-check: (*{2}(br_local + 2))[15:14] = 2
# The stub (after .text, within 2 KiB) starts with Thumb movw ip, #:lower16:ext.
# jitlink-check: (*{2}br_ext)[10:0] = 0
# jitlink-check: (*{2}((br_ext + 4) + (((*{2}(br_ext + 2))[10:0]) << 1)))[15:4] = 0xf24
# jitlink-check: (*{2}(((br_ext + 4) + (((*{2}(br_ext + 2))[10:0]) << 1)) + 2))[11:8] = 0xc
        .globl  br_local, br_ext
br_local:
        bne.w   thumb_fn
br_ext:
        beq.w   ext
        bx      lr
        .globl  thumb_fn
        .type   thumb_fn, %function
        .thumb_func
thumb_fn:
        bx      lr
.ifdef FAR
        beq.w   thumb_far
        .section .text.far,"ax",%progbits
        .space  0x100000
        .type   thumb_far, %function
        .thumb_func
thumb_far:
        bx      lr
.endif

        .data
        .p2align 2
        .globl  le_word, ie_word, gd_a, gd_b, ldm_word, ldo_word
# jitlink-check: *{4}le_word = 8
# jitlink-check: *{4}(le_word + 4) = 14
le_word:
        .word   a(tpoff)
        .word   b(tpoff) + 2
# jitlink-check: *{4}((ie_word + (*{4}ie_word))[31:0]) = 12
ie_word:
        .word   b(gottpoff)
# jitlink-check: *{4}((gd_a + (*{4}gd_a))[31:0]) = 1
# jitlink-check: *{4}(((gd_a + (*{4}gd_a)) + 4)[31:0]) = 0
gd_a:
        .word   a(tlsgd)
# jitlink-check: *{4}((gd_b + (*{4}gd_b))[31:0]) = 1
# jitlink-check: *{4}(((gd_b + (*{4}gd_b)) + 4)[31:0]) = 4
gd_b:
        .word   b(tlsgd)
# jitlink-check: *{4}((ldm_word + (*{4}ldm_word))[31:0]) = 1
# jitlink-check: *{4}(((ldm_word + (*{4}ldm_word)) + 4)[31:0]) = 0
ldm_word:
        .word   a(tlsldm)
# jitlink-check: *{4}ldo_word = 4
ldo_word:
        .word   b(tlsldo)

        .section .tdata,"awT",%progbits
        .p2align 2
a:
        .word   1
        .section .tbss,"awT",%nobits
        .p2align 2
b:
        .word   0
