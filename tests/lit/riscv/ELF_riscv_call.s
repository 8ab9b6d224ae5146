# R_RISCV_CALL_PLT / R_RISCV_CALL on auipc+jalr pairs, without relaxation:
# calls within the graph go direct, calls to external symbols go through a
# stub that jumps through the GOT.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=riscv64 -mattr=-relax --defsym=RV64=1 -filetype=obj -o %t/elf_riscv_call.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -abs external_func=0x12345678 -check %s %t/elf_riscv_call.o
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -abs external_func=0x12345678 -check-name=rv64-check -check %s %t/elf_riscv_call.o
# RUN: llvm-mc -triple=riscv32 -mattr=-relax -filetype=obj -o %t/elf_riscv_call.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -abs external_func=0x12345678 -check %s %t/elf_riscv_call.o
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0xfff00000 \
# RUN:     -slab-page-size 4096 -abs external_func=0x12345678 -check-name=rv32-check -check %s %t/elf_riscv_call.o

        .text
        .globl  main
        .p2align 2
main:
# jitlink-check: (*{4}test_call_local)[31:12] = ((local_func - test_call_local) + 0x800)[31:12]
# jitlink-check: decode_operand(test_call_local + 4, 2)[11:0] = (local_func - test_call_local)[11:0]
        .globl  test_call_local
test_call_local:
        call    local_func
# jitlink-check: (*{4}test_call_ext)[31:12] = ((stub_addr(elf_riscv_call.o, external_func) - test_call_ext) + 0x800)[31:12]
# jitlink-check: decode_operand(test_call_ext + 4, 2)[11:0] = (stub_addr(elf_riscv_call.o, external_func) - test_call_ext)[11:0]
        .globl  test_call_ext
test_call_ext:
        tail    external_func
# jitlink-check: (*{4}test_call_plain)[31:12] = ((local_func - test_call_plain) + 0x800)[31:12]
# jitlink-check: decode_operand(test_call_plain + 4, 2)[11:0] = (local_func - test_call_plain)[11:0]
        .globl  test_call_plain
test_call_plain:
        .reloc  ., R_RISCV_CALL, local_func
        auipc   ra, 0
        jalr    ra, 0(ra)
        ret
        .space  0x1234
        .globl  local_func
local_func:
        ret

# The stub loads the GOT entry, which holds the external address.
# rv64-check: *{8}(got_addr(elf_riscv_call.o, external_func)) = external_func
# rv32-check: *{4}(got_addr(elf_riscv_call.o, external_func)) = external_func
