# MachO x86-64 code relocations: X86_64_RELOC_BRANCH (local, and external
# through a stub the optimizer bypasses when in range), SIGNED and
# SIGNED_1/2/4 (immediates after the field), extern and section-relative.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-apple-macos -filetype=obj -o %t/code.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7f0000 \
# RUN:   -slab-page-size 4096 -abs _near_fn=0x7f8000 -abs _far_fn=0x7000000000 \
# RUN:   -check %s %t/code.o

        .section __TEXT,__text,regular,pure_instructions
        .globl  _main
        .p2align 4
_main:
        retq

        .globl  _callee
_callee:
        retq

# jitlink-check: decode_operand(_call_local, 0) = _callee - next_pc(_call_local)
        .globl  _call_local
_call_local:
        callq   _callee

# In range: the stub is bypassed. Out of range: the call goes through it.
# jitlink-check: decode_operand(_call_near, 0) = _near_fn - next_pc(_call_near)
# jitlink-check: decode_operand(_call_far, 0) = stub_addr(code.o, _far_fn) - next_pc(_call_far)
# jitlink-check: *{8}(got_addr(code.o, _far_fn)) = _far_fn
        .globl  _call_near
_call_near:
        callq   _near_fn
        .globl  _call_far
_call_far:
        callq   _far_fn

# jitlink-check: decode_operand(_lea_signed, 4) = _data - next_pc(_lea_signed)
# jitlink-check: decode_operand(_lea_signed_addend, 4) = (_data + 12) - next_pc(_lea_signed_addend)
        .globl  _lea_signed
_lea_signed:
        leaq    _data(%rip), %rax
        .globl  _lea_signed_addend
_lea_signed_addend:
        leaq    _data+12(%rip), %rax

# SIGNED_1/2/4: 1, 2 or 4 immediate bytes follow the displacement, so the
# instruction ends 1, 2 or 4 bytes after the field (c6 05 d32 i8; 66 c7 05
# d32 i16; c7 05 d32 i32).
# jitlink-check: *{4}(_movb_signed1 + 2) = (_data - (_movb_signed1 + 7))[31:0]
# jitlink-check: *{4}(_movw_signed2 + 3) = (_data - (_movw_signed2 + 9))[31:0]
# jitlink-check: *{4}(_movl_signed4 + 2) = (_data - (_movl_signed4 + 10))[31:0]
        .globl  _movb_signed1
_movb_signed1:
        movb    $0x12, _data(%rip)
        .globl  _movw_signed2
_movw_signed2:
        movw    $0x1234, _data(%rip)
        .globl  _movl_signed4
_movl_signed4:
        movl    $0x12345678, _data(%rip)

# Section-relative forms: a local label in another section.
# jitlink-check: *{4}(_lea_anon + 3) = ((section_addr(code.o, __DATA,__data) + 4) - next_pc(_lea_anon))[31:0]
# jitlink-check: *{4}(_movb_anon + 2) = ((section_addr(code.o, __DATA,__data) + 4) - (_movb_anon + 7))[31:0]
        .globl  _lea_anon
_lea_anon:
        leaq    Lanon+4(%rip), %rax
        .globl  _movb_anon
_movb_anon:
        movb    $1, Lanon+4(%rip)

        .section __DATA,__data
        .p2align 4
Lanon:
        .quad   0
        .quad   0
        .globl  _data
_data:
        .space  16

        .subsections_via_symbols
