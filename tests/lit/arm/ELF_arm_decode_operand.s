# jitlink-check's decode_operand and next_pc on Arm and Thumb code, in LLVM
# MC's operand order (predicates after a conditional form's operands, before
# Thumb BL/BLX's; MOVT's tied source), the decoder chosen by the symbol's
# state. Branch offsets count from the PC as read: next_pc is the
# instruction + 8 in Arm state, + its size in Thumb.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=armv7-linux-gnueabi -arm-add-build-attributes -filetype=obj -o %t/decode.o %s
# RUN: linklab -noexec -no-process-syms -slab-address 0x76ff0000 -slab-allocate 10Kb -slab-page-size 4096 \
# RUN:     -abs data_symbol=0x12345678 -check %s %t/decode.o

        .text
        .syntax unified
        .arm
        .globl  main
        .type   main,%function
        .p2align 2
main:
        bx      lr
        .size   main, .-main

# jitlink-check: next_pc(arm_bl) = arm_bl + 8
# jitlink-check: decode_operand(arm_bl, 0) = arm_target - next_pc(arm_bl)
# jitlink-check: decode_operand(arm_blx, 0) = thumb_target - next_pc(arm_blx)
# jitlink-check: decode_operand(arm_b, 0) = arm_target - next_pc(arm_b)
# jitlink-check: decode_operand(arm_b, 1) = 14
# jitlink-check: decode_operand(arm_bne, 1) = 1
# jitlink-check: decode_operand(arm_movw, 1) = data_symbol[15:0]
# jitlink-check: decode_operand(arm_movt, 2) = data_symbol[31:16]
        .globl  arm_bl
        .type   arm_bl,%function
arm_bl:
        bl      arm_target
        .size   arm_bl, .-arm_bl
        .globl  arm_blx
        .type   arm_blx,%function
arm_blx:
        bl      thumb_target
        .size   arm_blx, .-arm_blx
        .globl  arm_b
        .type   arm_b,%function
arm_b:
        b       arm_target
        .size   arm_b, .-arm_b
        .globl  arm_bne
        .type   arm_bne,%function
arm_bne:
        bne     arm_target
        .size   arm_bne, .-arm_bne
        .globl  arm_movw
        .type   arm_movw,%function
arm_movw:
        movw    r0, :lower16:data_symbol
        .size   arm_movw, .-arm_movw
        .globl  arm_movt
        .type   arm_movt,%function
arm_movt:
        movt    r0, :upper16:data_symbol
        .size   arm_movt, .-arm_movt
        .globl  arm_target
        .type   arm_target,%function
arm_target:
        bx      lr
        .size   arm_target, .-arm_target

        .thumb
# jitlink-check: next_pc(thumb_bl) = thumb_bl + 4
# jitlink-check: decode_operand(thumb_bl, 2) = thumb_target - next_pc(thumb_bl)
# jitlink-check: decode_operand(thumb_blx, 2) = arm_target - (next_pc(thumb_blx) & 0xfffffffc)
# jitlink-check: decode_operand(thumb_bw, 0) = thumb_target - next_pc(thumb_bw)
# jitlink-check: decode_operand(thumb_movw, 1) = data_symbol[15:0]
# jitlink-check: decode_operand(thumb_movt, 2) = data_symbol[31:16]
# jitlink-check: next_pc(thumb_target) = thumb_target + 2
        .globl  thumb_bl
        .type   thumb_bl,%function
        .thumb_func
thumb_bl:
        bl      thumb_target
        .size   thumb_bl, .-thumb_bl
        .globl  thumb_blx
        .type   thumb_blx,%function
        .thumb_func
thumb_blx:
        bl      arm_target
        .size   thumb_blx, .-thumb_blx
        .globl  thumb_bw
        .type   thumb_bw,%function
        .thumb_func
thumb_bw:
        b.w     thumb_target
        .size   thumb_bw, .-thumb_bw
        .globl  thumb_movw
        .type   thumb_movw,%function
        .thumb_func
thumb_movw:
        movw    r1, :lower16:data_symbol
        .size   thumb_movw, .-thumb_movw
        .globl  thumb_movt
        .type   thumb_movt,%function
        .thumb_func
thumb_movt:
        movt    r1, :upper16:data_symbol
        .size   thumb_movt, .-thumb_movt
        .globl  thumb_target
        .type   thumb_target,%function
        .thumb_func
thumb_target:
        bx      lr
        .size   thumb_target, .-thumb_target
