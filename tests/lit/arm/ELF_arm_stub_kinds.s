# stub_addr(file, symbol, kind): an external reached from Arm and from Thumb
# code has two stubs, told apart by a kind filter naming their instruction
# set ("arm" / "thumb", parts of llvm-jitlink's "armv7_abs_le" and
# "thumbv7_abs_le"). With the C runtime linked (no -no-process-syms), the
# object's branches still go through stubs, as llvm-jitlink makes them: only
# the runtime's own branches go direct.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=armv7a-linux-gnueabihf -arm-add-build-attributes -filetype=obj -o %t/kinds.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x76ff0000 \
# RUN:     -slab-page-size 4096 -abs ext=0x76bbe880 -check %s %t/kinds.o
# RUN: linklab -noexec -slab-allocate 20Mb -slab-address 0x76ff0000 \
# RUN:     -slab-page-size 4096 -abs ext=0x76bbe880 -check %s %t/kinds.o
# Without a filter, two stubs are ambiguous; a filter no stub matches is an error:
# RUN: echo '# jitlink-check: stub_addr(kinds.o, ext) = 0' > %t/nofilter.chk
# RUN: not linklab -noexec -no-process-syms -abs ext=0x76bbe880 -check %t/nofilter.chk %t/kinds.o 2>&1 \
# RUN:   | FileCheck --check-prefix=NOFILTER %s
# RUN: echo '# jitlink-check: stub_addr(kinds.o, ext, mips) = 0' > %t/nomatch.chk
# RUN: not linklab -noexec -no-process-syms -abs ext=0x76bbe880 -check %t/nomatch.chk %t/kinds.o 2>&1 \
# RUN:   | FileCheck --check-prefix=NOMATCH %s
# NOFILTER: "ext" has 2 candidate stubs in file "kinds.o". Please refine stub-kind filter "" for disambiguation (encountered kinds are "thumbv7_abs_le", "armv7_abs_le").
# NOMATCH: "ext" has 2 stubs in file "kinds.o", but none of them matches the stub-kind filter "mips" (all encountered kinds are "thumbv7_abs_le", "armv7_abs_le").

        .text
        .syntax unified

# jitlink-check: decode_operand(arm_call, 0) = stub_addr(kinds.o, ext, arm) - (arm_call + 8)
        .arm
        .globl  arm_call
        .type   arm_call,%function
        .p2align 2
arm_call:
        b       ext
        .size   arm_call, .-arm_call

# jitlink-check: decode_operand(thumb_call, 0) = stub_addr(kinds.o, ext, thumb) - (thumb_call + 4)
        .thumb
        .globl  thumb_call
        .type   thumb_call,%function
        .thumb_func
        .p2align 1
thumb_call:
        b.w     ext
        .size   thumb_call, .-thumb_call

        .arm
        .globl  main
        .type   main,%function
        .p2align 2
main:
        mov     r0, #0
        bx      lr
        .size   main, .-main
