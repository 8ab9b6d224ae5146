# -show-addrs prints zero-sized symbols as llvm-jitlink does: each symbol's
# target address and an empty range; zero-fill symbols and sections say so.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=aarch64-unknown-linux-gnu -position-independent -filetype=obj -o %t/zero.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x7fff0000 -slab-page-size 4096 \
# RUN:   -show-addrs %t/zero.o | FileCheck %s
# CHECK: Registered addresses:
# CHECK: "main" target addr = 0x{{0*}}7fff1000, content: {{0x[0-9a-f]+}} -- {{0x[0-9a-f]+}} (0 bytes)
# CHECK: File "{{.*}}zero.o":
# CHECK-DAG: Section ".text": target addr = 0x{{0*}}7fff1000, content: {{.*}} (8 bytes)
# CHECK-DAG: Section ".bss": target addr = 0x{{0*}}7fff0000, zero-fill: 16 bytes

        .text
        .globl  main
        .p2align        2
        .type   main,@function
main:
        mov     w0, wzr
        ret
        .size   main, 0

        .bss
        .globl  buf
buf:
        .zero   16
