// AArch64 relocation families checked byte for byte against ld.lld.
  .text
  .globl main
  .p2align 2
main:
  bl helper                        // R_AARCH64_CALL26
  b helper                         // R_AARCH64_JUMP26
  b.eq helper                      // R_AARCH64_CONDBR19
  tbz x0, #3, helper               // R_AARCH64_TSTBR14
  adrp x0, data_word               // R_AARCH64_ADR_PREL_PG_HI21
  add x0, x0, :lo12:data_word      // R_AARCH64_ADD_ABS_LO12_NC
  ldr x1, [x0, :lo12:table]        // R_AARCH64_LDST64_ABS_LO12_NC
  ldr w1, [x0, :lo12:data_word]    // R_AARCH64_LDST32_ABS_LO12_NC
  ldrh w1, [x0, :lo12:half]        // R_AARCH64_LDST16_ABS_LO12_NC
  ldrb w1, [x0, :lo12:data_word]   // R_AARCH64_LDST8_ABS_LO12_NC
  ldr q1, [x0, :lo12:vec]          // R_AARCH64_LDST128_ABS_LO12_NC
  ldr x2, literal                  // R_AARCH64_LD_PREL_LO19
  adr x3, helper                   // R_AARCH64_ADR_PREL_LO21
  movz x4, #:abs_g3:far_sym        // R_AARCH64_MOVW_UABS_G3
  movk x4, #:abs_g2_nc:far_sym     // R_AARCH64_MOVW_UABS_G2_NC
  movk x4, #:abs_g1_nc:far_sym     // R_AARCH64_MOVW_UABS_G1_NC
  movk x4, #:abs_g0_nc:far_sym     // R_AARCH64_MOVW_UABS_G0_NC
  ret
helper:
  ret
literal:
  .quad 0

  .data
  .p2align 4
vec:
  .quad 1, 2
data_word:
  .word 7
half:
  .hword 3
  .p2align 3
table:
  .xword main                      // R_AARCH64_ABS64
  .word data_word - .              // R_AARCH64_PREL32
  .word helper                     // R_AARCH64_ABS32
  .xword far_sym - .               // R_AARCH64_PREL64
