# A weak definition in an object given is replaced by a strong one from an
# archive member that is pulled for another symbol (helper), as ld.lld and
# GNU ld link it: the archive scan runs before the object's link resolves
# anything. The program's result is the strong definition's (42, not 1),
# run freestanding and checked under -noexec.
# REQUIRES-LINKLAB-ONLY: llvm-jitlink-22 reports "duplicate definition of symbol 'answer'": it adds the member after the object's weak definition was materialized
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/weak.o %s
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/member.o \
# RUN:   %S/Inputs/ELF_x86_64_weak_archive_member.s
# RUN: llvm-ar rcs %t/libmember.a %t/member.o
# RUN: linklab -noexec -runtime=none -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -entry=run -check %s %t/weak.o -L%t -lmember
# RUN: linklab -runtime=none -entry=run %t/weak.o %t/libmember.a; test $? -eq 42

        .text
        .globl  run
        .type   run,@function
run:
        callq   helper
        .globl  call_answer
call_answer:
        callq   answer
        retq
        .size   run, .-run

# Both calls bind to the member's definitions; the weak body is not linked.
# jitlink-check: decode_operand(call_answer, 0) = answer - next_pc(call_answer)
# jitlink-check: *{1}answer = 0xb8
# jitlink-check: *{4}(answer + 1) = 42
        .weak   answer
        .type   answer,@function
answer:
        movl    $1, %eax
        retq
        .size   answer, .-answer
