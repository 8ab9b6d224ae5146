# Input for ELF_x86_64_weak_archive_override.s, linked from an archive: the
# strong definition of `answer`, in the member pulled for `helper`.
        .text
        .globl  answer
        .type   answer,@function
answer:
        movl    $42, %eax
        retq
        .size   answer, .-answer

        .globl  helper
        .type   helper,@function
helper:
        retq
        .size   helper, .-helper
