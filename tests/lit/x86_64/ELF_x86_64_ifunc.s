# STT_GNU_IFUNC: the symbol becomes a stub that jumps through a slot, and
# every reference -- a call here, a call and a GOT load in another object, a
# data pointer, an alias at the same resolver -- reaches that one stub (the
# canonical address). The slot is described by an R_X86_64_IRELATIVE record
# {slot, 37, resolver} in the table __rela_iplt_start/__rela_iplt_end bracket,
# which holds the records of every object linked (here, two IFUNCs in two
# objects) however the objects were ordered.
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 rejects STT_GNU_IFUNC ("Missing definitions")
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/ifunc.o %s
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/other.o \
# RUN:   %S/Inputs/ELF_x86_64_ifunc_other.s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s -check %S/Inputs/ELF_x86_64_ifunc_other.s %t/ifunc.o %t/other.o
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t/other.o %t/ifunc.o
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -show-graphs=ifunc.o %t/ifunc.o %t/other.o | FileCheck %s

# CHECK: section $__IFUNC_GOT:
# CHECK: Keep-Alive
# CHECK: section $__IFUNC_STUBS:

        .text
        .globl  main
        .type   main,@function
main:
        callq   other_user
# A call inside the defining object reaches the stub too.
# jitlink-check: decode_operand(call_f, 0) = f - next_pc(call_f)
        .globl  call_f
call_f:
        callq   f
        retq
        .size   main, .-main

impl_f:
        movl    $42, %eax
        retq

        .globl  resolve_f
        .type   resolve_f,@function
resolve_f:
        leaq    impl_f(%rip), %rax
        retq

# f and its alias f_alias name one resolver: one stub, one record.
        .globl  f
        .type   f,@gnu_indirect_function
        .set    f, resolve_f
        .globl  f_alias
        .type   f_alias,@gnu_indirect_function
        .set    f_alias, resolve_f
# jitlink-check: f_alias = f

# The stub: jmp *slot(%rip) (ff 25 rel32), the slot being the first record's r_offset.
# jitlink-check: *{2}f = 0x25ff
# jitlink-check: *{4}(f + 2) = ((*{8}__rela_iplt_start) - (f + 6))[31:0]

# Two records, 24 bytes each: {slot, R_X86_64_IRELATIVE, resolver}, in the
# order the objects were allocated (this one is linked first, for main).
# jitlink-check: __rela_iplt_end - __rela_iplt_start = 48
# jitlink-check: *{8}(__rela_iplt_start + 8) = 37
# jitlink-check: *{8}(__rela_iplt_start + 32) = 37
# jitlink-check: *{8}(__rela_iplt_start + 16) = resolve_f
# jitlink-check: *{8}(__rela_iplt_start + 40) = resolve_g
# The slot starts as zero: glibc's start code (apply_irel) fills it.
# jitlink-check: *{8}(*{8}__rela_iplt_start) = 0

        .data
# A data pointer to f holds the stub's address; the start code's reference
# to the table is what makes the link lay it out.
# jitlink-check: *{8}f_ptr = f
        .globl  f_ptr
f_ptr:
        .quad   f
        .quad   __rela_iplt_start
        .quad   __rela_iplt_end
