# RISC-V 64 relocation families checked byte for byte against ld.lld
# (assembled without relaxation: both linkers then keep every instruction).
  .option norelax
  .text
  .globl main
  .p2align 2
main:
  call helper                      # R_RISCV_CALL_PLT
  jal ra, helper                   # R_RISCV_JAL
  beq a0, a1, helper               # R_RISCV_BRANCH
1:
  auipc a0, %pcrel_hi(data_word)   # R_RISCV_PCREL_HI20
  addi a0, a0, %pcrel_lo(1b)       # R_RISCV_PCREL_LO12_I
2:
  auipc a1, %pcrel_hi(table)
  sd a0, %pcrel_lo(2b)(a1)         # R_RISCV_PCREL_LO12_S
  lui a2, %hi(data_word)           # R_RISCV_HI20
  addi a2, a2, %lo(data_word)      # R_RISCV_LO12_I
  sw a2, %lo(data_word)(a2)        # R_RISCV_LO12_S
  c.j helper                       # R_RISCV_RVC_JUMP
  c.beqz a0, helper                # R_RISCV_RVC_BRANCH
  ret
helper:
  ret

  .data
  .p2align 3
data_word:
  .word 7
table:
  .quad main                       # R_RISCV_64
  .word helper                     # R_RISCV_32
  .word data_word - table          # R_RISCV_ADD32/SUB32
  .quad far_sym - table            # R_RISCV_ADD64/SUB64
  .half helper - main              # R_RISCV_ADD16/SUB16
  .byte helper - main              # R_RISCV_ADD8/SUB8
