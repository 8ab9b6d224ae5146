// The fixups the Disassembly view labels, linked with far_data and far_fn
// absolute and far (2^40): a GOT load (adrp + ldr of the entry), a call
// through the stub for far_fn, and a direct call (AArch64 calls are not
// relaxed: a defined target is reached by bl itself; near_fn is global so
// the assembler leaves the call to the linker).
  .text
  .globl main
  .type main,@function
main:
  stp x29, x30, [sp, #-16]!
  adrp x0, :got:far_data
  ldr x0, [x0, :got_lo12:far_data]
  bl far_fn
  bl near_fn
  ldp x29, x30, [sp], #16
  ret
  .globl near_fn
  .type near_fn,@function
near_fn:
  ret
