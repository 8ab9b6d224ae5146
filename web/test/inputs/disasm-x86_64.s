# The fixups the Disassembly view labels, linked with far_data and far_fn
# absolute and far (2^40) and near_fn absolute and near the slab: a GOT load
# that stays one (mov, not relaxable to lea that far), a call through the
# stub for far_fn, and a call to near_fn whose stub the linker bypasses.
  .text
  .globl main
  .type main,@function
main:
  movq far_data@GOTPCREL(%rip), %rax
  call far_fn@PLT
  call near_fn@PLT
  ret
