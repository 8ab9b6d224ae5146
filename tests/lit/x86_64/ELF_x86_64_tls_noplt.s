# General- and local-dynamic TLS compiled with -fno-plt: the call to
# __tls_get_addr goes through its GOT entry (R_X86_64_GOTPCRELX), and the
# sequences are relaxed to local-exec as with the PLT call (x86-64 psABI,
# "TLS Linker Optimizations", the GOTPCRELX forms). The GD call is as long as
# the PLT one; the LD one is a byte longer, which one more prefix pads. The
# TLS image is .tdata {a: 4 bytes, pad, b: 8 bytes}: a at TP-16, b at TP-8.
# __tls_get_addr is never looked up: nothing defines it here.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 rejects R_X86_64_DTPOFF32 and has no static-link TLS relaxation.
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t.o

  .text
  .globl main
  .p2align 4
main:
# GD: `movq %fs:0, %rax; leaq b@tpoff(%rax), %rax` over all 16 bytes.
# jitlink-check: *{4}gd_seq = 0x048b4864
# jitlink-check: *{1}(gd_seq + 9) = 0x48
# jitlink-check: *{2}(gd_seq + 10) = 0x808d
# jitlink-check: *{4}(gd_seq + 12) = 0xfffffff8
# jitlink-check: *{1}gd_end = 0xc3
  .globl gd_seq
gd_seq:
  .byte 0x66
  leaq b@tlsgd(%rip), %rdi
  .byte 0x66
  rex64
  call *__tls_get_addr@GOTPCREL(%rip)
  .globl gd_end
gd_end:
  ret

# LD: 13 bytes, four prefixes then `movq %fs:0, %rax` (64 48 8b 04 25 0).
# jitlink-check: *{4}ld_seq = 0x66666666
# jitlink-check: *{4}(ld_seq + 4) = 0x048b4864
# jitlink-check: *{1}(ld_seq + 8) = 0x25
# jitlink-check: *{4}(ld_seq + 9) = 0
# jitlink-check: *{4}(ld_dtpoff + 3) = 0xfffffff0
  .globl ld_seq
ld_seq:
  leaq a@tlsld(%rip), %rdi
  call *__tls_get_addr@GOTPCREL(%rip)
  .globl ld_dtpoff
ld_dtpoff:
  leaq a@dtpoff(%rax), %rdx
  ret

  .section .tdata,"awT",@progbits
  .p2align 3
a:
  .long 1
  .p2align 3
b:
  .quad 2
