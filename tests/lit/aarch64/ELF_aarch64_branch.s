# Branch26PCRel: R_AARCH64_CALL26 / R_AARCH64_JUMP26 to a local function, and
# to an external one through a GOT-backed stub (adrp x16; ldr x16; br x16).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64-unknown-linux-gnu -filetype=obj -o %t/branch.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:   -slab-page-size 4096 -abs external_func=0xfff10000 -check %s %t/branch.o

        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

        .globl  local_func
        .p2align 2
        .type   local_func,@function
local_func:
        ret
        .size   local_func, .-local_func

# jitlink-check: decode_operand(call_local, 0)[25:0] = (local_func - call_local)[27:2]
        .globl  call_local
        .p2align 2
call_local:
        bl      local_func
        .size   call_local, .-call_local

# jitlink-check: decode_operand(jump_local, 0)[25:0] = (local_func - jump_local)[27:2]
        .globl  jump_local
        .p2align 2
jump_local:
        b       local_func
        .size   jump_local, .-jump_local

# A forward branch with an addend (the target is 8 bytes past forward_target).
# jitlink-check: decode_operand(call_forward, 0)[25:0] = ((forward_target + 8) - call_forward)[27:2]
        .globl  call_forward
        .p2align 2
call_forward:
        bl      forward_target + 8
        .size   call_forward, .-call_forward

# Calls and jumps to externals always go through the stub; the GOT entry
# holds the target and the stub's adrp/ldr reach that entry.
# jitlink-check: decode_operand(call_external, 0)[25:0] = (stub_addr(branch.o, external_func) - call_external)[27:2]
# jitlink-check: decode_operand(jump_external, 0)[25:0] = (stub_addr(branch.o, external_func) - jump_external)[27:2]
# jitlink-check: *{8}(got_addr(branch.o, external_func)) = external_func
# jitlink-check: (*{4}(stub_addr(branch.o, external_func)))[23:5] = \
# jitlink-check:     (got_addr(branch.o, external_func)[32:12] - stub_addr(branch.o, external_func)[32:12])[20:2]
# jitlink-check: (*{4}(stub_addr(branch.o, external_func)))[30:29] = \
# jitlink-check:     (got_addr(branch.o, external_func)[32:12] - stub_addr(branch.o, external_func)[32:12])[1:0]
# jitlink-check: (*{4}(stub_addr(branch.o, external_func) + 4))[21:10] = got_addr(branch.o, external_func)[11:3]
# jitlink-check: *{4}(stub_addr(branch.o, external_func) + 8) = 0xd61f0200
        .globl  call_external
        .p2align 2
call_external:
        bl      external_func
        .size   call_external, .-call_external

        .globl  jump_external
        .p2align 2
jump_external:
        b       external_func
        .size   jump_external, .-jump_external

        .globl  forward_target
        .p2align 2
forward_target:
        nop
        nop
        ret
