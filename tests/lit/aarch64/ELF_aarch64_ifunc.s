# STT_GNU_IFUNC: the symbol becomes a stub (adrp x16; ldr x16, [x16, :lo12:slot];
# br x16) jumping through a slot that an R_AARCH64_IRELATIVE record
# {slot, 1032, resolver} in the __rela_iplt_start/__rela_iplt_end table
# describes; a call, an ADRP/ADD address, a GOT load and a data pointer all
# reach the stub (the canonical address).
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 rejects STT_GNU_IFUNC ("Missing definitions")
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64-linux-gnu -filetype=obj -o %t/ifunc.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t/ifunc.o

        .text
        .globl  main
        .p2align 2
main:
# jitlink-check: decode_operand(call_f, 0)[25:0] = ((f - call_f) >> 2)[25:0]
        .globl  call_f
call_f:
        bl      f
        .globl  adrp_f
adrp_f:
        adrp    x0, f
# jitlink-check: decode_operand(add_f, 2) = f[11:0]
        .globl  add_f
add_f:
        add     x0, x0, :lo12:f
# The GOT entry of f holds the stub.
# jitlink-check: *{8}(got_addr(ifunc.o, f)) = f
        .globl  got_f
got_f:
        adrp    x1, :got:f
        ldr     x1, [x1, :got_lo12:f]
        ret

impl_f:
        mov     w0, #42
        ret

        .globl  resolve_f
        .type   resolve_f,@function
resolve_f:
        adrp    x0, impl_f
        add     x0, x0, :lo12:impl_f
        ret

        .globl  f
        .type   f,@gnu_indirect_function
        .set    f, resolve_f

# The stub: adrp x16, slot; ldr x16, [x16, slot[11:0]]; br x16.
# jitlink-check: decode_operand(f, 1) = ((*{8}__rela_iplt_start)[32:12] - f[32:12])
# jitlink-check: decode_operand(f + 4, 2) = (*{8}__rela_iplt_start)[11:3]
# jitlink-check: *{4}(f + 8) = 0xd61f0200
# One record: {slot, R_AARCH64_IRELATIVE, resolver}.
# jitlink-check: __rela_iplt_end - __rela_iplt_start = 24
# jitlink-check: *{8}(__rela_iplt_start + 8) = 1032
# jitlink-check: *{8}(__rela_iplt_start + 16) = resolve_f

        .data
        .globl  f_ptr
# jitlink-check: *{8}f_ptr = f
f_ptr:
        .quad   f
        .quad   __rela_iplt_start
        .quad   __rela_iplt_end
