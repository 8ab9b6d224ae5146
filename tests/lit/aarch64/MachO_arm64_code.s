# MachO arm64 code relocations: ARM64_RELOC_BRANCH26 (local, external through
# a stub), PAGE21/PAGEOFF12 into ADD and every load/store size, with and
# without an ARM64_RELOC_ADDEND pair, and the dead-stripping rules that keep
# no-dead-strip sections and symbols.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=arm64-apple-macos -filetype=obj -o %t/code.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7f0000 \
# RUN:   -slab-page-size 4096 -abs _ext_fn=0x12345678 -check %s %t/code.o

        .section __TEXT,__text,regular,pure_instructions
        .globl  _main
        .p2align 2
_main:
        ret

        .globl  _callee
        .p2align 2
_callee:
        ret

# jitlink-check: decode_operand(_call_local, 0)[25:0] = (_callee - _call_local)[27:2]
        .globl  _call_local
        .p2align 2
_call_local:
        bl      _callee

# A call outside the graph goes through a stub whose GOT entry holds the target.
# jitlink-check: decode_operand(_call_ext, 0)[25:0] = (stub_addr(code.o, _ext_fn) - _call_ext)[27:2]
# jitlink-check: *{8}(got_addr(code.o, _ext_fn)) = _ext_fn
        .globl  _call_ext
        .p2align 2
_call_ext:
        b       _ext_fn

# PAGE21 and PAGEOFF12 carry their addend in an ARM64_RELOC_ADDEND entry.
# jitlink-check: decode_operand(_page, 1) = (_table[32:12] - _page[32:12])
# jitlink-check: decode_operand(_page_addend, 1) = ((_table + 0x1010)[32:12] - _page_addend[32:12])
# jitlink-check: decode_operand(_add_lo12, 2) = _table[11:0]
# jitlink-check: decode_operand(_add_lo12_addend, 2) = (_table + 0x28)[11:0]
        .globl  _page
        .p2align 2
_page:
        adrp    x0, _table@PAGE
        .globl  _page_addend
_page_addend:
        adrp    x0, _table@PAGE + 0x1010
        .globl  _add_lo12
_add_lo12:
        add     x0, x0, _table@PAGEOFF
        .globl  _add_lo12_addend
_add_lo12_addend:
        add     x0, x0, _table@PAGEOFF + 0x28

# Loads and stores scale the offset by their access size.
# jitlink-check: decode_operand(_ldrb, 2) = (_table + 0x30)[11:0]
# jitlink-check: decode_operand(_ldrh, 2) = (_table + 0x30)[11:1]
# jitlink-check: decode_operand(_ldrw, 2) = (_table + 0x30)[11:2]
# jitlink-check: decode_operand(_ldrx, 2) = (_table + 0x30)[11:3]
# jitlink-check: decode_operand(_ldrq, 2) = (_table + 0x30)[11:4]
# jitlink-check: decode_operand(_strx, 2) = (_table + 0x30)[11:3]
        .globl  _ldrb
_ldrb:
        ldrb    w0, [x0, _table@PAGEOFF + 0x30]
        .globl  _ldrh
_ldrh:
        ldrh    w0, [x0, _table@PAGEOFF + 0x30]
        .globl  _ldrw
_ldrw:
        ldr     w0, [x0, _table@PAGEOFF + 0x30]
        .globl  _ldrx
_ldrx:
        ldr     x0, [x0, _table@PAGEOFF + 0x30]
        .globl  _ldrq
_ldrq:
        ldr     q0, [x0, _table@PAGEOFF + 0x30]
        .globl  _strx
_strx:
        str     x1, [x0, _table@PAGEOFF + 0x30]

        .section __DATA,__data
        .p2align 4
        .skip   0x7a0
        .globl  _table
_table:
        .space  0x40

# A no-dead-strip section survives though nothing refers to it.
# jitlink-check: *{8}(section_addr(code.o, __DATA,__keep)) = 0x1122334455667788
        .section __DATA,__keep,regular,no_dead_strip
        .quad   0x1122334455667788

        .subsections_via_symbols
