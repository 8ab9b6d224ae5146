# -check reports every failing rule with its file, line, text and both
# sides' values, evaluates the rest, and exits non-zero; a check file with no
# rules fails. -check-name picks which rules a file's lines hold, so this one
# file carries passing rules (jitlink-check), failing ones (fail) and none.
#
# REQUIRES-LINKLAB-ONLY: asserts linklab's own diagnostic text
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/f.o %s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check %s %t/f.o
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check-name=fail -check %s %t/f.o 2>&1 \
# RUN:   | FileCheck --check-prefix=FAIL %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check-name=nothing -check %s %t/f.o 2>&1 \
# RUN:   | FileCheck --check-prefix=NONE %s
# RUN: not linklab -noexec -no-process-syms -check %t/missing.txt %t/f.o 2>&1 \
# RUN:   | FileCheck --check-prefix=MISSING %s

        .text
        .globl  main
        .type   main,@function
main:
        callq   callee
        retq
        .size   main, .-main
        .globl  callee
callee:
        retq
        .size   callee, .-callee

# jitlink-check: decode_operand(main, 0) = callee - next_pc(main)
# A rule may continue over several lines.
# jitlink-check: next_pc(main) = \
# jitlink-check:   main + 5

# Three of these four rules fail; each failure names its line, the rule as
# written (continuations joined) and both values.
# fail: decode_operand(main, 0) = 2
# FAIL: check_failures.s:[[#@LINE-1]]: check failed: 'decode_operand(main, 0) = 2': left side is 0x1, right side is 0x2
# fail: main = callee
# FAIL: check_failures.s:[[#@LINE-1]]: check failed: 'main = callee': left side is 0x[[#%x,MAIN:]],
# FAIL-SAME: right side is 0x[[#%x,MAIN+6]]
# fail: next_pc(main) = \
# fail:   main + 4
# FAIL: check_failures.s:[[#@LINE-2]]: check failed: 'next_pc(main) = main + 4': left side is 0x[[#%x,MAIN+5]], right side is 0x[[#%x,MAIN+4]]
# fail: callee - main = 6
# FAIL-NOT: check failed
# FAIL: check_failures.s: 3 of 4 checks failed
# FAIL: linklab error: some checks failed

# NONE: check_failures.s: no '# nothing:' rules found
# MISSING: missing.txt: cannot open check file
