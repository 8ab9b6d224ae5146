# -add-self-relocations: each `leaq f(%rip)` inside a function f that the
# assembler resolved itself (no relocation in the object) gets a Delta32 edge
# to f, so the pointer follows f wherever it is placed. As llvm-jitlink's pass
# decides: only 64-bit LEA forms a function pointer (a load from f does not);
# other targets and operands that already have a relocation stay as they are.
#
# RUN: llvm-mc -triple=x86_64-apple-macosx10.9 -filetype=obj -o %t.o %s
# RUN: linklab -noexec -show-graphs='.*' %t.o | FileCheck -check-prefix=WITHOUT %s
# RUN: linklab -noexec -show-graphs='.*' -add-self-relocations %t.o | FileCheck %s

# WITHOUT: symbols:
# WITHOUT-NEXT: _f
# WITHOUT-NEXT: edges:
# WITHOUT-NEXT: (block + 0x0000000a), addend = -0x00000004, kind = Delta32, target = _g
# WITHOUT-NOT: kind =

# CHECK: symbols:
# CHECK-NEXT: _f
# CHECK-NEXT: edges:
# CHECK-NEXT: (block + 0x00000003), addend = -0x00000004, kind = Delta32, target = _f
# CHECK-NEXT: (block + 0x0000000a), addend = -0x00000004, kind = Delta32, target = _g
# CHECK-NEXT: (block + 0x00000035), addend = -0x00000004, kind = Delta32, target = _f
# CHECK-NOT: kind =

# jitlink-check: decode_operand(_f, 4) = _f - next_pc(_f)
  .section  __TEXT,__text,regular,pure_instructions
  .globl  _f
  .p2align  4, 0x90
_f:
  leaq  _f(%rip), %rax          # 0x00: disp32 at 0x03, the instruction's end
  leaq  _g(%rip), %rax          # 0x07: a relocation already
  movq  _f(%rip), %rcx          # 0x0e: a load from _f, not a pointer to it
  cmpl  $1, _f(%rip)            # 0x15: a compare with _f's first word
  leaq  _f+4(%rip), %rax        # 0x1c: not _f's start
  leal  _f(%rip), %eax          # 0x23: a 32-bit LEA
  nop                           # 0x29
  pushq %rbp
  movq  %rsp, %rbp
  subq  $32, %rsp
  leaq  _f(%rip), %rdx          # 0x32: disp32 at 0x35
  addq  $32, %rsp
  popq  %rbp
  retq

  .globl  _g
  .p2align  4, 0x90
_g:
  retq

  .globl  _main
  .p2align  4, 0x90
_main:
  xorl  %eax, %eax
  retq

  .subsections_via_symbols
