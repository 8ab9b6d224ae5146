# LoongArch 32 (ILP32): the pcaddu12i forms LA32 adds, its 4-byte GOT
# entries and its stubs (pcaddu12i; ld.w; jr), checked through both linkers.
# - PCADD_HI20 on a pcaddu12i: (S + A - P + 0x800) >> 12; the PCADD_LO12
#   on the next instruction names the pcaddu12i's label and writes the low
#   12 bits of the pair's distance. GOT_PCADD_HI20/LO12 do the same to a
#   GOT entry.
# - CALL30 (pcaddu12i + jirl): the upper part unrounded, jirl's word offset
#   the low bits; a call to an external goes through its stub.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=loongarch32 -filetype=obj -o %t/la32.o %s
# RUN: llvm-readelf -r %t/la32.o | FileCheck --check-prefix=RELOCS %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 \
# RUN:     -slab-page-size 4096 -abs ext_data=0x12345678 -abs ext_func=0x10000000 \
# RUN:     -check %s %t/la32.o
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 \
# RUN:     -slab-page-size 4096 -abs ext_data=0x12345678 -abs ext_func=0x10000000 \
# RUN:     -show-graphs=la32 %t/la32.o | FileCheck --check-prefix=GRAPH %s
#
# RELOCS-DAG: R_LARCH_PCADD_HI20 {{.*}} data
# RELOCS-DAG: R_LARCH_PCADD_LO12 {{.*}} pcadd_hi
# RELOCS-DAG: R_LARCH_GOT_PCADD_HI20 {{.*}} ext_data
# RELOCS-DAG: R_LARCH_GOT_PCADD_LO12 {{.*}} got_hi
# RELOCS-DAG: R_LARCH_CALL30 {{.*}} ext_func
# RELOCS-DAG: R_LARCH_CALL30 {{.*}} near
# GRAPH: section $__GOT:
# GRAPH: kind = Pointer32, target = ext_data
# GRAPH: section $__STUBS:
# GRAPH: kind = PCAddHi20
# GRAPH: kind = PCAddLo12

        .text
        .globl  main
        .p2align 2
main:
        ret

# jitlink-check: decode_operand(pcadd_hi, 1)[19:0] = ((data - pcadd_hi) + 0x800)[31:12]
# jitlink-check: decode_operand(pcadd_lo, 2)[11:0] = (data - pcadd_hi)[11:0]
        .globl  pcadd_hi, pcadd_lo
        .p2align 2
pcadd_hi:
        pcaddu12i $a0, %pcadd_hi20(data)
        .size   pcadd_hi, 4
pcadd_lo:
        addi.w  $a0, $a0, %pcadd_lo12(pcadd_hi)
        .size   pcadd_lo, 4

# The GOT entry is 4 bytes and holds the address.
# jitlink-check: *{4}(got_addr(la32.o, ext_data)) = ext_data
# jitlink-check: decode_operand(got_hi, 1)[19:0] = ((got_addr(la32.o, ext_data) - got_hi) + 0x800)[31:12]
# jitlink-check: decode_operand(got_lo, 2)[11:0] = (got_addr(la32.o, ext_data) - got_hi)[11:0]
        .globl  got_hi, got_lo
        .p2align 2
got_hi:
        pcaddu12i $a0, %got_pcadd_hi20(ext_data)
        .size   got_hi, 4
got_lo:
        ld.w    $a0, $a0, %got_pcadd_lo12(got_hi)
        .size   got_lo, 4

# CALL30 to a local function: unrounded upper part, low bits in jirl.
# jitlink-check: decode_operand(call_near, 1)[19:0] = (near - call_near)[31:12]
# jitlink-check: decode_operand(call_near + 4, 2)[17:0] = (near - call_near)[11:0]
        .globl  call_near
        .p2align 2
call_near:
        pcaddu12i $ra, %call30(near)
        jirl    $ra, $ra, 0
        .size   call_near, 8

# CALL30 and B26 to an external reach its stub, whose pcaddu12i and ld.w
# load the GOT entry:
# jitlink-check: decode_operand(call_ext, 1)[19:0] = (stub_addr(la32.o, ext_func) - call_ext)[31:12]
# jitlink-check: decode_operand(call_ext + 4, 2)[17:0] = (stub_addr(la32.o, ext_func) - call_ext)[11:0]
# jitlink-check: decode_operand(jump_ext, 0)[27:0] = (stub_addr(la32.o, ext_func) - jump_ext)[27:0]
# jitlink-check: (*{4}(stub_addr(la32.o, ext_func)))[24:5] = \
# jitlink-check:   ((got_addr(la32.o, ext_func) - stub_addr(la32.o, ext_func)) + 0x800)[31:12]
# jitlink-check: (*{4}(stub_addr(la32.o, ext_func) + 4))[21:10] = \
# jitlink-check:   (got_addr(la32.o, ext_func) - stub_addr(la32.o, ext_func))[11:0]
# jitlink-check: *{4}(got_addr(la32.o, ext_func)) = ext_func
        .globl  call_ext, jump_ext
        .p2align 2
call_ext:
        pcaddu12i $ra, %call30(ext_func)
        jirl    $ra, $ra, 0
        .size   call_ext, 8
jump_ext:
        b       ext_func
        .size   jump_ext, 4

        .skip   0x1234
        .globl  near
        .p2align 2
near:
        ret

        .data
        .p2align 4
# R_LARCH_32: a 4-byte pointer.
# jitlink-check: *{4}ptr = data
        .globl  ptr
ptr:
        .word   data
        .skip   0x900
        .globl  data
data:
        .word   42
