# A general- or local-dynamic TLS relocation outside the code sequence a
# static link can relax (here: no data16 prefixes, and an LD lea followed by
# something other than the call) is refused, naming the edge.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 has no static-link TLS relaxation to check the sequence for
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/gd.o %s --defsym GD=1
# RUN: not linklab -noexec %t/gd.o 2>&1 | FileCheck --check-prefix=GD %s
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/ld.o %s
# RUN: not linklab -noexec %t/ld.o 2>&1 | FileCheck --check-prefix=LD %s
#
# GD: not the general-dynamic TLS code sequence (data16 lea; call __tls_get_addr@PLT or *__tls_get_addr@GOTPCREL) that can be relaxed
# LD: not the local-dynamic TLS code sequence (lea; call __tls_get_addr@PLT or *__tls_get_addr@GOTPCREL) that can be relaxed

        .text
        .globl  main
        .type   main,@function
main:
.ifdef GD
        leaq    x@tlsgd(%rip), %rdi
        call    __tls_get_addr@PLT
.else
        leaq    x@tlsld(%rip), %rdi
        nop
        nop
        nop
        nop
        nop
.endif
        xorl    %eax, %eax
        retq
        .size   main, .-main

        .section .tbss,"awT",@nobits
        .globl  x
x:
        .long   0
