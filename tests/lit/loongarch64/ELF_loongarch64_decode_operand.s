# jitlink-check's decode_operand on LoongArch: branch offsets in bytes,
# si20/si12 immediates sign-extended, registers first in LLVM MC's order
# (a compare branch lists rj before rd).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc --triple=loongarch64 --filetype=obj -o %t/decode.o %s
# RUN: linklab -noexec -no-process-syms -slab-address 0x10000000 -slab-allocate 1Mb -slab-page-size 16384 \
# RUN:     -check %s %t/decode.o

        .text
        .globl  main
        .p2align 2
        .type   main,@function
main:
        ret
        .size   main, .-main

# jitlink-check: decode_operand(call26, 0) = target - call26
# jitlink-check: decode_operand(jump26, 0) = target - jump26
# jitlink-check: decode_operand(br16, 2) = target - br16
# jitlink-check: decode_operand(br21, 1) = target - br21
# jitlink-check: decode_operand(pcala, 1) = (target - pcala + 0x800)[31:12]
# jitlink-check: decode_operand(addi, 2) = target[11:0]
# jitlink-check: decode_operand(call36, 1)[19:0] = (target - call36 + (1<<17))[37:18]
# jitlink-check: decode_operand(call36 + 4, 2)[17:0] = (target - call36)[17:0]
# jitlink-check: next_pc(call26) = call26 + 4
        .globl  call26
call26:
        bl      target
        .size   call26, .-call26
        .globl  jump26
jump26:
        b       target
        .size   jump26, .-jump26
        .globl  br16
br16:
        beq     $t1, $t2, target
        .size   br16, .-br16
        .globl  br21
br21:
        beqz    $t1, target
        .size   br21, .-br21
        .globl  pcala
pcala:
        pcalau12i $a0, %pc_hi20(target)
        .size   pcala, .-pcala
        .globl  addi
addi:
        addi.d  $a0, $a0, %pc_lo12(target)
        .size   addi, .-addi
        .globl  call36
call36:
        pcaddu18i $ra, %call36(target)
        jirl    $ra, $ra, 0
        .size   call36, .-call36
        .p2align 4
        .globl  target
        .type   target,@function
target:
        ret
        .size   target, .-target
