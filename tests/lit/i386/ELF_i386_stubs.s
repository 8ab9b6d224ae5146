# Calls to symbols outside the graph (R_386_PLT32) go through a stub,
# `jmp *entry` (ff 25 abs32), that jumps through the callee's GOT entry;
# when the callee turns out to be within a rel32 of the call, the call goes
# straight to it and the stub is left unused.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=i386-unknown-linux-gnu -filetype=obj -o %t/elf_i386_stubs.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:     -slab-page-size 4096 -abs far_func=0xf0000000 -abs near_func=0x20000 \
# RUN:     -check %s %t/elf_i386_stubs.o

        .text
        .globl  main
        .p2align 4
main:
# 0xf0000000 is more than 2 GiB above the call: through the stub.
# jitlink-check: *{4}(call_far + 1) = (stub_addr(elf_i386_stubs.o, far_func) - (call_far + 5))[31:0]
# jitlink-check: *{2}(stub_addr(elf_i386_stubs.o, far_func)) = 0x25ff
# jitlink-check: *{4}(stub_addr(elf_i386_stubs.o, far_func) + 2) = got_addr(elf_i386_stubs.o, far_func)
# jitlink-check: *{4}(got_addr(elf_i386_stubs.o, far_func)) = 0xf0000000
        .globl  call_far
call_far:
        calll   far_func@PLT
# In range: straight to the callee.
# jitlink-check: *{4}(call_near + 1) = (near_func - (call_near + 5))[31:0]
        .globl  call_near
call_near:
        calll   near_func@PLT
        retl
