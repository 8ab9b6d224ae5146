# Relocations linklab does not link are named, with the place, in the
# error: here R_LARCH_TLS_LE_HI20 (local-exec TLS), and R_LARCH_ABS_HI20
# (absolute addresses in pieces).
#
# REQUIRES-LINKLAB-ONLY: the message is linklab's.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=loongarch64-linux-gnu -filetype=obj -o %t/tls.o %s
# RUN: not linklab -noexec -no-process-syms %t/tls.o 2>&1 | FileCheck --check-prefix=TLS %s
# RUN: llvm-mc -triple=loongarch64-linux-gnu -filetype=obj --defsym ABS=1 -o %t/abs.o %s
# RUN: not linklab -noexec -no-process-syms %t/abs.o 2>&1 | FileCheck --check-prefix=ABS %s
# TLS: tls.o: .text+0x4: R_LARCH_TLS_LE_HI20 (type 83): unsupported relocation type
# ABS: abs.o: .text+0x4: R_LARCH_ABS_HI20 (type 67): unsupported relocation type

        .text
        .globl  main
main:
        nop
.ifdef ABS
        lu12i.w $a0, %abs_hi20(x)
.else
        lu12i.w $a0, %le_hi20(x)
.endif
        ret
        .section .tbss,"awT",@nobits
        .globl  x
x:
        .word   0
