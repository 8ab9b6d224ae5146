# decode_operand and next_pc on Power10's prefixed instructions (8 bytes, the
# prefix word first): paddi/pla (PC-relative: rt, 0, si34; else rt, ra,
# si34, or pli: rt, si34) and the prefixed loads and stores (rt, d34, 0 when
# PC-relative, else rt, d34, ra), d34 signed.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22's disassembler has no Power10 (an ELF object carries no CPU, and llvm-jitlink takes none): "Couldn't decode instruction" on any prefixed one.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=powerpc64le-unknown-linux-gnu -mcpu=pwr10 -filetype=obj -o %t/prefixed.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -abs ext_data=0x12345678 -check %s %t/prefixed.o
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -abs ext_data=0x12345678 -check %S/Inputs/decode_bad_operand.check %t/prefixed.o 2>&1 \
# RUN:   | FileCheck --check-prefix=BAD %s
# BAD: operand 0 of 'p_la' is register r3, not an immediate (PADDIpc r3, 0, {{.*}})
# BAD: cannot decode the instruction at 'data_word' ({{.*}}): ppc64: 0x00000000 is not an instruction form fixups use
# BAD: operand index 0 is out of range for 'nop_at': NOP has 0 operands

        .abiversion 2
        .text
        .globl  main
        .p2align 4
main:
# jitlink-check: decode_operand(p_la, 2) = var - p_la
# jitlink-check: decode_operand(p_la, 1) = 0
# jitlink-check: next_pc(p_la) = p_la + 8
        .globl  p_la
p_la:
        pla     3, var@pcrel
# The GOT entry is below the code: a negative d34.
# jitlink-check: decode_operand(p_ld, 1) = got_addr(prefixed.o, ext_data) - p_ld
# jitlink-check: next_pc(p_ld) = p_ld + 8
        .globl  p_ld
p_ld:
        pld     4, ext_data@got@pcrel
# jitlink-check: decode_operand(p_stw, 1) = var - p_stw
# jitlink-check: decode_operand(p_lxv, 1) = var - p_lxv
        .globl  p_stw, p_lxv
p_stw:
        pstw    4, var@pcrel(0), 1
p_lxv:
        plxv    35, var@pcrel(0), 1
# Not PC-relative: pli (rt, si34), paddi (rt, ra, si34), pld (rt, d34, ra).
# jitlink-check: decode_operand(p_li, 1) = 0x1ffffffff
# jitlink-check: decode_operand(p_addi, 2) + 0x200000000 = 0
# jitlink-check: decode_operand(p_ldra, 1) = 0x12345678
        .globl  p_li, p_addi, p_ldra
p_li:
        pli     3, 0x1ffffffff
p_addi:
        paddi   3, 4, -0x200000000, 0
p_ldra:
        pld     3, 0x12345678(5), 0
        .globl  nop_at
nop_at:
        nop
        blr
        .globl  data_word
data_word:
        .long   0

        .data
        .p2align 4
        .globl  var
var:
        .quad   0, 0
