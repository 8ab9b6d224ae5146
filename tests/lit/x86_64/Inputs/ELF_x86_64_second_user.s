# Input for ELF_x86_64_got_per_object.s: a second user of `ext`.
        .text
        .globl  second_user
second_user:
        retq
        .size   second_user, .-second_user
        .globl  second_call
second_call:
        callq   ext
        .size   second_call, .-second_call
        .globl  second_load
second_load:
        movq    ext@GOTPCREL(%rip), %rax
        .size   second_load, .-second_load
