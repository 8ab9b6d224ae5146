# Local-dynamic TLS (R_386_TLS_LDM) is not linked (general-dynamic is
# relaxed: ELF_i386_tls_gd.s): the relocation is named in the error.
#
# REQUIRES-LINKLAB-ONLY: the message is linklab's.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=i386-unknown-linux-gnu -filetype=obj -o %t/elf_i386_unsupported.o %s
# RUN: not linklab -noexec -no-process-syms %t/elf_i386_unsupported.o 2>&1 | FileCheck %s
# CHECK: elf_i386_unsupported.o: .text+0x2: R_386_TLS_LDM (type 19): unsupported relocation type

        .text
        .globl  main
main:
        leal    x@tlsldm(%ebx), %eax
        calll   ___tls_get_addr@PLT
        retl
        .section .tbss,"awT",@nobits
        .globl  x
x:
        .long   0
