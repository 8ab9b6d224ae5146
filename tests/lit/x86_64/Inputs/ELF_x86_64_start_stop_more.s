# The other object of ELF_x86_64_start_stop.s: a `myset` entry holding a
# pointer to this object's static function, reached from code through the
# section symbol (myset+0).
        .text
        .globl  more_user
more_user:
# jitlink-check: *{4}(more_load + 3) = (__start_myset + 16) - next_pc(more_load)
        .globl  more_load
more_load:
        leaq    myset(%rip), %rax
        retq
static_fn:
        retq

# jitlink-check: *{8}(__start_myset + 16) = static_fn_addr
        .section myset,"aw",@progbits
        .p2align 3
        .quad   static_fn
        .text
        .globl  static_fn_addr
        .set    static_fn_addr, static_fn
