# An @notoc call to a static function names it as its section's symbol plus
# an offset (R_PPC64_REL24_NOTOC against .text + 0x10): the stub's GOT entry
# holds that sum, and the call enters the stub at its start.
#
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 builds the GOT entry for the section symbol without the addend and keeps the addend on the call into the stub (it would enter the stub 0x10 bytes in and jump to .text).
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=powerpc64le-unknown-linux-gnu -mcpu=pwr10 -filetype=obj -o %t/static.o %s
# RUN: llvm-readelf -r %t/static.o | FileCheck --check-prefix=RELOCS %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 \
# RUN:     -slab-page-size 4096 -show-graphs='.*' -check %s %t/static.o | FileCheck %s
#
# RELOCS: R_PPC64_REL24_NOTOC {{.*}} .text + 10
# CHECK:      section $__GOT:
# CHECK:      block 0x10000008 size = 0x00000008
# CHECK:      addend = +0x00000010, kind = Pointer64, target = addressable@0x10001000+0x00000000
# CHECK:      section $__STUBS:
# CHECK-EMPTY:
# CHECK-NEXT: block 0x10001018 size = 0x00000020
# CHECK:      kind = Delta16HA, target = addressable@0x10000008+0x00000000
# CHECK:      kind = Delta16LO, target = addressable@0x10000008+0x00000000
# CHECK:      addend = +0x00000000, kind = CallBranchDelta, target = addressable@0x10001018+0x00000000
#
# square (dead-stripped as a name: only its section's symbol is used) is main + 0x10.
# jitlink-check: *{8}0x10000008 = main + 0x10
# jitlink-check: (*{4}main)[25:2] = (0x10001018 - main) >> 2

        .abiversion 2
        .text
        .globl  main
        .p2align 4
main:
        bl      square@notoc
        blr
        .p2align 4
        .type   square,@function
square:
        mullw   3, 3, 3
        blr
