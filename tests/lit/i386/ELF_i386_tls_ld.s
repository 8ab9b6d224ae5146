# Local-dynamic TLS (R_386_TLS_LDM and the module offsets R_386_TLS_LDO_32,
# as -fPIC code reaches its own static thread_locals) is relaxed to
# local-exec as a static linker relaxes it: the lea and the call to
# ___tls_get_addr become movl %gs:0,%eax; nop; leal 0(%esi,%eiz,1),%esi,
# each offset becomes the symbol's TPOFF, and ___tls_get_addr is never
# looked up. A TLS_LDM not in that sequence is an error naming it.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 has no i386 TLS.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=i386-linux-gnu -filetype=obj -o %t/ld.o %s
# RUN: llvm-readelf -r %t/ld.o | FileCheck --check-prefix=RELOCS %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -check %s %t/ld.o
# RUN: llvm-mc -triple=i386-linux-gnu -filetype=obj --defsym BAD=1 -o %t/bad.o %s
# RUN: not linklab -noexec -no-process-syms %t/bad.o 2>&1 | FileCheck --check-prefix=BAD %s
#
# RELOCS: R_386_TLS_LDM {{.*}} a
# RELOCS: R_386_PLT32 {{.*}} ___tls_get_addr
# RELOCS: R_386_TLS_LDO_32 {{.*}} a
# RELOCS: R_386_TLS_LDO_32 {{.*}} b
# BAD: bad.o: .text+0x{{[0-9a-f]+}}: TLSLDMToLocalExec against a: not the local-dynamic TLS code sequence

        .text
        .globl  main
        .type   main, @function
main:
# a and b are the 8-byte .tbss block just below TP: TPOFF(a) = -8, TPOFF(b) = -4.
# jitlink-check: *{2}ld = 0xa165
# jitlink-check: *{4}(ld + 2) = 0
# jitlink-check: *{1}(ld + 6) = 0x90
# jitlink-check: *{4}(ld + 7) = 0x0026748d
# jitlink-check: *{4}(loada + 2) = 0xfffffff8
# jitlink-check: *{4}(loadb + 2) = 0xfffffffc
        .globl  ld, loada, loadb
ld:
        leal    a@tlsldm(%ebx), %eax
        call    ___tls_get_addr@PLT
loada:
        movl    a@dtpoff(%eax), %ecx
loadb:
        leal    b@dtpoff(%eax), %edx
.ifdef BAD
        leal    a@tlsldm(%ebx), %eax
        nop
.endif
        ret

        .section .tbss,"awT",@nobits
        .p2align 2
a:
        .long   0
b:
        .long   0
