# MachO x86-64 GOT and thread-local relocations: X86_64_RELOC_GOT_LOAD (a
# movq the optimizer turns into leaq when the target is in range),
# and X86_64_RELOC_GOT (any other use of the entry).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-apple-macos -filetype=obj -o %t/got.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7f0000 \
# RUN:   -slab-page-size 4096 -abs _near_data=0x7f9000 -abs _far_data=0x7000000000 \
# RUN:   -check %s %t/got.o

        .section __TEXT,__text,regular,pure_instructions
        .globl  _main
_main:
        retq

# In range: movq foo@GOTPCREL(%rip) becomes leaq foo(%rip).
# jitlink-check: *{1}(_gotload_near + 1) = 0x8d
# jitlink-check: decode_operand(_gotload_near, 4) = _near_data - next_pc(_gotload_near)
        .globl  _gotload_near
_gotload_near:
        movq    _near_data@GOTPCREL(%rip), %rax

# Out of range: the load stays and reads the GOT entry.
# jitlink-check: *{1}(_gotload_far + 1) = 0x8b
# jitlink-check: decode_operand(_gotload_far, 4) = got_addr(got.o, _far_data) - next_pc(_gotload_far)
# jitlink-check: *{8}(got_addr(got.o, _far_data)) = _far_data
        .globl  _gotload_far
_gotload_far:
        movq    _far_data@GOTPCREL(%rip), %rax

# GOT: not a load the optimizer may rewrite (ff 35 d32).
# jitlink-check: *{4}(_got_push + 2) = (got_addr(got.o, _near_data) - (_got_push + 6))[31:0]
        .globl  _got_push
_got_push:
        pushq   _near_data@GOTPCREL(%rip)

        .subsections_via_symbols
