# Local-dynamic TLS is refused with JITLink's words (R_PPC64_TLSLD, the
# marker on the __tls_get_addr call, comes before the call's relocation);
# its other relocations (GOT_TLSLD16*, DTPREL*) are unsupported relocation
# types in both linkers. (JITLink also refuses local-exec TPREL34 by name,
# which linklab links: ELF_ppc64le_tls_le_ie.s.)
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=powerpc64le-unknown-linux-gnu -filetype=obj -o %t/ld.o %s
# RUN: not linklab -noexec -no-process-syms -abs __tls_get_addr=0x1000 %t/ld.o 2>&1 | FileCheck --check-prefix=LD %s
# LD: Local-dynamic TLS model is not supported

        .abiversion 2
        .text
        .globl  main
main:
        bl      __tls_get_addr(x@tlsld)
        nop
        blr

        .section .tbss,"awT",@nobits
x:
        .long   0
