# An arm64e signed pointer (ARM64_RELOC_AUTHENTICATED_POINTER) in a debug
# section, which nothing executes, becomes a Pointer64Authenticated edge that
# no fixup applies: the link fails in llvm-jitlink's words, naming the graph
# and the section. (NoAlloc sections are fixed up like any other.)
#
# RUN: llvm-mc -triple=arm64e-apple-macosx -filetype=obj -o %t.o %s
# RUN: not linklab -noexec -abs _ext=0x1000 %t.o 2>&1 | FileCheck %s
#
# CHECK: error: In graph {{.*}}.o, section __DWARF,__debug_stuff unsupported edge kind Pointer64Authenticated

        .section __TEXT,__text,regular,pure_instructions
        .globl  _main
        .p2align 2
_main:
        mov     w0, #0
        ret

        .section __DWARF,__debug_stuff,regular,debug
        .globl  _dbg
        .p2align 3
_dbg:                                   # global, so kept
        .quad   _ext@AUTH(ia,0)
.subsections_via_symbols
