# The TLS models JITLink refuses by name on ppc64, with its words: local-dynamic
# (R_PPC64_TLSLD, the marker on the __tls_get_addr call) and Power10
# local-exec (R_PPC64_TPREL34). The other TLS relocations (TPREL16*,
# GOT_TPREL16*, DTPREL*, GOT_TLSLD16*...) are unsupported relocation types
# in both linkers (ELF_ppc64le_errors.s).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=powerpc64le-unknown-linux-gnu -filetype=obj --defsym LD=1 -o %t/ld.o %s
# RUN: not linklab -noexec -no-process-syms -abs __tls_get_addr=0x1000 %t/ld.o 2>&1 | FileCheck --check-prefix=LD %s
# LD: Local-dynamic TLS model is not supported
# RUN: llvm-mc -triple=powerpc64le-unknown-linux-gnu -mcpu=pwr10 -filetype=obj --defsym LE=1 -o %t/le.o %s
# RUN: not linklab -noexec -no-process-syms %t/le.o 2>&1 | FileCheck --check-prefix=LE %s
# LE: Local-exec TLS model is not supported

        .abiversion 2
        .text
        .globl  main
main:
.ifdef LD
        bl      __tls_get_addr(x@tlsld)
        nop
.endif
.ifdef LE
        paddi   3, 13, x@tprel, 0
.endif
        blr

        .section .tbss,"awT",@nobits
x:
        .long   0
