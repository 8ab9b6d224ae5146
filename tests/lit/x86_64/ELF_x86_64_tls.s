# Thread-local storage on x86-64: every model a compiler emits is relaxed to
# local-exec, as a static link does (x86-64 psABI, "Thread-Local Storage").
# The TLS image here is .tdata {a: 4 bytes, pad, b: 8 bytes} = 16 bytes,
# 8-aligned, ending at the thread pointer: a is at TP-16, b at TP-8.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 rejects R_X86_64_TPOFF32 ("Unsupported x86-64 relocation type").
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t.o

  .text
  .globl main
  .p2align 4
main:
# Local-exec: R_X86_64_TPOFF32 holds the offset itself.
# jitlink-check: *{4}(le_load + 4) = 0xfffffff0
  .globl le_load
le_load:
  movl %fs:a@tpoff, %eax

# Initial-exec: R_X86_64_GOTTPOFF; `movq x@gottpoff(%rip), %rcx` becomes
# `movq $tpoff, %rcx` (48 c7 c1 imm32).
# jitlink-check: *{1}ie_load = 0x48
# jitlink-check: *{1}(ie_load + 1) = 0xc7
# jitlink-check: *{1}(ie_load + 2) = 0xc1
# jitlink-check: *{4}(ie_load + 3) = 0xfffffff8
  .globl ie_load
ie_load:
  movq b@gottpoff(%rip), %rcx
# `addq x@gottpoff(%rip), %r9` becomes `addq $tpoff, %r9` (49 81 c1 imm32).
# jitlink-check: *{1}ie_add = 0x49
  .globl ie_add
ie_add:
  addq a@gottpoff(%rip), %r9

# General-dynamic: R_X86_64_TLSGD + the call to __tls_get_addr become
# `movq %fs:0, %rax; leaq x@tpoff(%rax), %rax`.
# jitlink-check: *{4}gd_seq = 0x048b4864
# jitlink-check: *{1}(gd_seq + 9) = 0x48
# jitlink-check: *{2}(gd_seq + 10) = 0x808d
# jitlink-check: *{4}(gd_seq + 12) = 0xfffffff8
  .globl gd_seq
gd_seq:
  .byte 0x66
  leaq b@tlsgd(%rip), %rdi
  .word 0x6666
  rex64
  call __tls_get_addr@PLT

# Local-dynamic: R_X86_64_TLSLD's sequence becomes a padded `movq %fs:0, %rax`,
# and R_X86_64_DTPOFF32 the local-exec offset.
# jitlink-check: *{4}ld_seq = 0x64666666
# jitlink-check: *{4}(ld_dtpoff + 3) = 0xfffffff0
  .globl ld_seq
ld_seq:
  leaq a@tlsld(%rip), %rdi
  call __tls_get_addr@PLT
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
