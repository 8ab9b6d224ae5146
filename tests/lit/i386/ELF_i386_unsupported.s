# TLS descriptors (R_386_TLS_GOTDESC, -mtls-dialect=gnu2) are not linked
# (general- and local-dynamic are relaxed: ELF_i386_tls_gd.s,
# ELF_i386_tls_ld.s): the relocation is named in the error.
#
# REQUIRES-LINKLAB-ONLY: the message is linklab's.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=i386-unknown-linux-gnu -filetype=obj -o %t/elf_i386_unsupported.o %s
# RUN: not linklab -noexec -no-process-syms %t/elf_i386_unsupported.o 2>&1 | FileCheck %s
# CHECK: elf_i386_unsupported.o: .text+0x2: R_386_TLS_GOTDESC (type 39): unsupported relocation type

        .text
        .globl  main
main:
        leal    x@tlsdesc(%ebx), %eax
        calll   *x@tlscall(%eax)
        retl
        .section .tbss,"awT",@nobits
        .globl  x
x:
        .long   0
