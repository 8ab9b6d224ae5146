# Input for ELF_x86_64_weak_common.s: strong definitions.
        .text
        .globl  overridden
        .type   overridden,@function
overridden:
        nop
        retq
        .size   overridden, .-overridden

        .globl  use_strong
use_strong:
        retq
        .size   use_strong, .-use_strong
