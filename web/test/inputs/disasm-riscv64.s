# The fixups the Disassembly view labels, linked with far_data and far_fn
# absolute and far (2^40): a GOT load (auipc + ld of the entry), a call
# through the stub for far_fn (not relaxable: auipc + jalr), and a call to
# near_fn that relaxation shrinks to one jal.
  .text
  .globl main
  .type main,@function
main:
  addi sp, sp, -16
  sd ra, 8(sp)
.Lgot:
  auipc a0, %got_pcrel_hi(far_data)
  ld a0, %pcrel_lo(.Lgot)(a0)
  .option push
  .option norelax
  call far_fn
  .option pop
  call near_fn
  ld ra, 8(sp)
  addi sp, sp, 16
  ret
  .type near_fn,@function
near_fn:
  ret
