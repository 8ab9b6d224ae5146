# MachO arm64 GOT and thread-local relocations: GOT_LOAD_PAGE21 and
# GOT_LOAD_PAGEOFF12 (defined and external targets), POINTER_TO_GOT, and
# TLVP_LOAD_PAGE21/PAGEOFF12, which load the address of a variable's
# __thread_vars descriptor from a GOT entry.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=arm64-apple-macos -filetype=obj -o %t/got.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7f0000 \
# RUN:   -slab-page-size 4096 -abs _ext_data=0xfeedf00d -abs __tlv_bootstrap=0x4000 \
# RUN:   -check %s %t/got.o

        .section __TEXT,__text,regular,pure_instructions
        .globl  _main
        .p2align 2
_main:
        ret

# jitlink-check: *{8}(got_addr(got.o, _ext_data)) = _ext_data
# jitlink-check: decode_operand(_got_page_ext, 1) = (got_addr(got.o, _ext_data)[32:12] - _got_page_ext[32:12])
# jitlink-check: decode_operand(_got_lo12_ext, 2) = got_addr(got.o, _ext_data)[11:3]
        .globl  _got_page_ext
        .p2align 2
_got_page_ext:
        adrp    x0, _ext_data@GOTPAGE
        .globl  _got_lo12_ext
_got_lo12_ext:
        ldr     x0, [x0, _ext_data@GOTPAGEOFF]

# jitlink-check: *{8}(got_addr(got.o, _local_data)) = _local_data
# jitlink-check: decode_operand(_got_page_def, 1) = (got_addr(got.o, _local_data)[32:12] - _got_page_def[32:12])
# jitlink-check: decode_operand(_got_lo12_def, 2) = got_addr(got.o, _local_data)[11:3]
        .globl  _got_page_def
        .p2align 2
_got_page_def:
        adrp    x0, _local_data@GOTPAGE
        .globl  _got_lo12_def
_got_lo12_def:
        ldr     x0, [x0, _local_data@GOTPAGEOFF]

# jitlink-check: *{8}(got_addr(got.o, _tv)) = _tv
# jitlink-check: decode_operand(_tlv_page, 1) = (got_addr(got.o, _tv)[32:12] - _tlv_page[32:12])
# jitlink-check: decode_operand(_tlv_lo12, 2) = got_addr(got.o, _tv)[11:3]
        .globl  _tlv_page
        .p2align 2
_tlv_page:
        adrp    x0, _tv@TLVPPAGE
        .globl  _tlv_lo12
_tlv_lo12:
        ldr     x0, [x0, _tv@TLVPPAGEOFF]

        .section __DATA,__data
        .globl  _local_data
        .p2align 3
_local_data:
        .quad   42

# POINTER_TO_GOT: a 32-bit PC-relative offset to the GOT entry.
# jitlink-check: *{4}_ptr_to_got = (got_addr(got.o, _ext_data) - _ptr_to_got)[31:0]
        .globl  _ptr_to_got
        .p2align 2
_ptr_to_got:
        .long   _ext_data@GOT - .

# The descriptor: {thunk, key, offset of the initial value}.
# jitlink-check: *{8}_tv = __tlv_bootstrap
# jitlink-check: *{8}(_tv + 16) = _tv$tlv$init
        .section __DATA,__thread_vars,thread_local_variables
        .globl  _tv
_tv:
        .quad   __tlv_bootstrap
        .quad   0
        .quad   _tv$tlv$init

        .section __DATA,__thread_data,thread_local_regular
        .p2align 2
_tv$tlv$init:
        .long   7

        .subsections_via_symbols
