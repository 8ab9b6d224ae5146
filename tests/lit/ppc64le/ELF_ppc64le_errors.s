# Bad input: a relocation linklab does not link is named with its place
# (local-dynamic TLS's DTPREL, also Power10's form). A call leaving the graph
# through a TOC-saving stub needs the nop after it, which becomes the r2 restore: a call
# without one is an error naming the call (llvm-jitlink-22, a release build,
# overwrites the instruction there).
#
# REQUIRES-LINKLAB-ONLY: the unsupported-relocation and missing-nop messages are linklab's (llvm-jitlink-22 has none for the nop; the out-of-range message is checked against it in ELF_ppc64le_out_of_range.s).
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=powerpc64le-linux-gnu -filetype=obj --defsym TLS=1 -o %t/tls.o %s
# RUN: not linklab -noexec -no-process-syms %t/tls.o 2>&1 | FileCheck --check-prefix=TLS %s
# TLS: tls.o: .text+0x0: R_PPC64_DTPREL16_LO (type 75): unsupported relocation type
# RUN: llvm-mc -triple=powerpc64le-linux-gnu -mcpu=pwr10 -filetype=obj --defsym TLSPC=1 -o %t/tlspc.o %s
# RUN: not linklab -noexec -no-process-syms %t/tlspc.o 2>&1 | FileCheck --check-prefix=TLSPC %s
# TLSPC: tlspc.o: .text+0x0: R_PPC64_DTPREL34 (type 147): unsupported relocation type
# RUN: llvm-mc -triple=powerpc64le-linux-gnu -filetype=obj --defsym NONOP=1 -o %t/nonop.o %s
# RUN: not linklab -noexec -no-process-syms -abs ext_fn=0x1000 %t/nonop.o 2>&1 | FileCheck --check-prefix=NONOP %s
# NONOP: nonop.o: .text+0x0: CallBranchDeltaRestoreTOC against {{.*}}: expected a nop after the call to restore r2 into, found 4e800020

        .abiversion 2
        .text
        .globl  main
main:
.ifdef TLS
        addi    3, 3, x@dtprel@l
.endif
.ifdef NONOP
        bl      ext_fn
.endif
.ifdef TLSPC
        paddi   3, 3, x@dtprel, 0
.endif
        blr
        .section .tbss,"awT",@nobits
x:
        .long   0
