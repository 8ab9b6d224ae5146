# Relocation families whose fixed-up bytes ld.lld must agree with when both
# linkers place the sections at the same addresses. No GOT/PLT: those
# entries live at linker-chosen addresses.
  .text
  .globl main
  .p2align 4
main:
  callq helper                     # R_X86_64_PLT32 to a local definition
  movl data_word(%rip), %eax       # R_X86_64_PC32
  leaq table+8(%rip), %rcx         # R_X86_64_PC32 with addend
  movl $data_word, %edx            # R_X86_64_32
  movq $table, %rsi                # R_X86_64_32S
  movabsq $far_sym, %rdi           # R_X86_64_64
  movw $small_sym, %ax             # R_X86_64_16
  movb $tiny_sym, %al              # R_X86_64_8
  jmp helper
  .p2align 4
helper:
  ret

  .data
  .p2align 3
data_word:
  .long 7
table:
  .quad main                       # R_X86_64_64
  .quad helper + 4
  .long data_word - .              # R_X86_64_PC32
  .quad far_sym - .                # R_X86_64_PC64
  .quad .text - table              # R_X86_64_PC64 against a section
