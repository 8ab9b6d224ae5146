# Thread-local storage on i386 (variant II: the TLS block ends at the thread
# pointer, %gs base). The image here is .tdata {a: 4 bytes, b: 4 bytes},
# 4-aligned, so a is at TP-8 and b at TP-4. Local-exec fixups hold the offset
# itself (@ntpoff, R_386_TLS_LE) or its negation (@tpoff, R_386_TLS_LE_32);
# initial-exec ones address a GOT entry holding it, absolutely (@indntpoff,
# R_386_TLS_IE) or from the GOT's start (@gotntpoff, R_386_TLS_GOTIE).
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 links no i386 TLS relocation ("Unsupported i386 relocation:17").
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=i386-unknown-linux-gnu -filetype=obj -o %t/elf_i386_tls.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:     -slab-page-size 4096 -check %s %t/elf_i386_tls.o

        .text
        .globl  main
        .p2align 4
main:
# jitlink-check: *{4}(le + 2) = 0xfffffff8
        .globl  le
le:
        movl    %gs:a@ntpoff, %eax
# jitlink-check: *{4}(le32 + 1) = 4
        .globl  le32
le32:
        movl    $b@tpoff, %eax
# jitlink-check: *{4}(ie + 1) = got_addr(elf_i386_tls.o, b)
# jitlink-check: *{4}(got_addr(elf_i386_tls.o, b)) = 0xfffffffc
        .globl  ie
ie:
        movl    b@indntpoff, %eax
# The GOT starts with b's entry (the first one made), then a's.
# jitlink-check: *{4}(gotie + 2) = got_addr(elf_i386_tls.o, a) - got_addr(elf_i386_tls.o, b)
# jitlink-check: *{4}(got_addr(elf_i386_tls.o, a)) = 0xfffffff8
        .globl  gotie
gotie:
        movl    a@gotntpoff(%ebx), %ecx
        retl

        .section .tdata,"awT",@progbits
        .p2align 2
        .globl  a
a:
        .long   1
        .globl  b
b:
        .long   2
