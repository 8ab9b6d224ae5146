# MachO x86-64 X86_64_RELOC_TLV: movq _v@TLVP(%rip) loads the address of the
# variable's __thread_vars descriptor {thunk, key, initial value}, here from
# a GOT entry holding it (as ld64's __thread_ptrs entries do).
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 lowers TLVP edges only with the ORC
# MachO platform ("unsupported edge kind RequestTLVPAndTransformToPCRel32TLVPLoadREXRelaxable").
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-apple-macos -filetype=obj -o %t/tlv.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7f0000 \
# RUN:   -slab-page-size 4096 -abs __tlv_bootstrap=0x4000 -check %s %t/tlv.o

        .section __TEXT,__text,regular,pure_instructions
        .globl  _main
_main:
        retq

# jitlink-check: *{8}(got_addr(tlv.o, _tv)) = _tv
# jitlink-check: decode_operand(_tlv_load, 4) = got_addr(tlv.o, _tv) - next_pc(_tlv_load)
        .globl  _tlv_load
_tlv_load:
        movq    _tv@TLVP(%rip), %rdi

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
