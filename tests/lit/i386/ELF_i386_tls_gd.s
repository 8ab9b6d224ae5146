# General-dynamic TLS (R_386_TLS_GD, as libstdc++.a's PIC code uses it) is
# relaxed to local-exec as a static linker relaxes it: the lea and the call
# to ___tls_get_addr become movl %gs:0,%eax; subl $-TPOFF(x),%eax, and
# ___tls_get_addr is never looked up. A TLS_GD not in that sequence is an
# error naming it.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 has no i386 TLS.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=i386-linux-gnu -filetype=obj -o %t/gd.o %s
# RUN: llvm-readelf -r %t/gd.o | FileCheck --check-prefix=RELOCS %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -check %s %t/gd.o
# RUN: llvm-mc -triple=i386-linux-gnu -filetype=obj --defsym BAD=1 -o %t/bad.o %s
# RUN: not linklab -noexec -no-process-syms %t/bad.o 2>&1 | FileCheck --check-prefix=BAD %s
#
# RELOCS: R_386_TLS_GD {{.*}} y
# RELOCS: R_386_PLT32 {{.*}} ___tls_get_addr
# BAD: bad.o: .text+0x{{[0-9a-f]+}}: TLSGDToLocalExec against y: not the general-dynamic TLS code sequence

        .text
        .globl  main
        .type   main, @function
main:
# y is the 4-byte .tbss block just below TP: TPOFF(y) = -4.
# jitlink-check: *{2}gd = 0xa165
# jitlink-check: *{4}(gd + 2) = 0
# jitlink-check: *{2}(gd + 6) = 0xe881
# jitlink-check: *{4}(gd + 8) = 4
        .globl  gd
gd:
        leal    y@tlsgd(,%ebx,1), %eax
        call    ___tls_get_addr@PLT
.ifdef BAD
        leal    y@tlsgd(%ebx), %eax
        nop
        nop
        nop
        nop
        nop
.endif
        ret

        .section .tbss,"awT",@nobits
        .p2align 2
y:
        .long   0
