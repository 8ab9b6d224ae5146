# STT_GNU_IFUNC: the symbol becomes a stub (auipc t3, slot; ld t3; jalr t1, t3)
# jumping through a slot that an R_RISCV_IRELATIVE record {slot, 58,
# resolver} in the __rela_iplt_start/__rela_iplt_end table describes; a call,
# a PC-relative address, a GOT load and a data pointer all reach the stub.
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 rejects STT_GNU_IFUNC ("Missing definitions")
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 -mattr=-relax -filetype=obj -o %t/ifunc.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t/ifunc.o

        .text
        .globl  main
        .p2align 2
main:
# jitlink-check: (*{4}call_f)[31:12] = ((f - call_f) + 0x800)[31:12]
# jitlink-check: decode_operand(call_f + 4, 2)[11:0] = (f - call_f)[11:0]
        .globl  call_f
call_f:
        call    f
# jitlink-check: (*{4}addr_f)[31:12] = ((f - addr_f) + 0x800)[31:12]
        .globl  addr_f
addr_f:
        lla     a0, f
# jitlink-check: *{8}(got_addr(ifunc.o, f)) = f
        .globl  got_f
got_f:
        auipc   a1, %got_pcrel_hi(f)
        ld      a1, %pcrel_lo(got_f)(a1)
        ret

impl_f:
        li      a0, 42
        ret

        .globl  resolve_f
        .type   resolve_f,@function
resolve_f:
        lla     a0, impl_f
        ret

        .globl  f
        .type   f,@gnu_indirect_function
        .set    f, resolve_f

# The stub's auipc reaches the slot (the record's r_offset).
# jitlink-check: (*{4}f)[31:12] = (((*{8}__rela_iplt_start) - f) + 0x800)[31:12]
# jitlink-check: (*{4}f)[11:0] = 0xe17
# One record: {slot, R_RISCV_IRELATIVE, resolver}.
# jitlink-check: __rela_iplt_end - __rela_iplt_start = 24
# jitlink-check: *{8}(__rela_iplt_start + 8) = 58
# jitlink-check: *{8}(__rela_iplt_start + 16) = resolve_f

        .data
        .globl  f_ptr
# jitlink-check: *{8}f_ptr = f
f_ptr:
        .quad   f
        .quad   __rela_iplt_start
        .quad   __rela_iplt_end
