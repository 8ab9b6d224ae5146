# Malformed rules: each gets a clear error naming its line, the rule and the
# problem; no rule stops the others from being evaluated, nothing crashes
# (`not` fails on a crash), and the exit status is non-zero.
#
# REQUIRES-LINKLAB-ONLY: asserts linklab's own diagnostic text
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux-gnu -filetype=obj -o %t/m.o %s
# RUN: not linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000 \
# RUN:   -slab-page-size 4096 -check-name=bad -check %s %t/m.o 2>&1 \
# RUN:   | FileCheck %s

        .text
        .globl  main
        .type   main,@function
main:
        callq   main
        retq
        .size   main, .-main
        .data
        .globl  data_label
data_label:
        .quad   0x0b0f0b0f0b0f0b0f  # ud2 ud2 ...: no field for a fixup
        .size   data_label, 8
        .section .data.page,"aw",@progbits
        .p2align 12
        .zero   4092
        .globl  page_tail
page_tail:
        .long   0

# bad: main = (main
# CHECK: check_malformed.s:[[#@LINE-1]]: error in check 'main = (main': right side: unexpected end of expression, expected ')'
# bad: *{3}main = 0
# CHECK: :[[#@LINE-1]]: error in check '*{3}main = 0': left side: load size 3 is not 1, 2, 4 or 8
# bad: *main = 0
# CHECK: :[[#@LINE-1]]: error in check '*main = 0': left side: unexpected 'main', expected '{' after '*'
# bad: *{8 main = 0
# CHECK: :[[#@LINE-1]]: error in check '*{8 main = 0': left side: unexpected 'main', expected '}' after load size
# bad: main[3] = 0
# CHECK: :[[#@LINE-1]]: error in check 'main[3] = 0': left side: unexpected ']', expected ':' in bit slice
# bad: main[2:5] = 0
# CHECK: :[[#@LINE-1]]: error in check 'main[2:5] = 0': left side: bad bit slice [2:5]: need hi >= lo and 63 >= lo
# bad: main[70:64] = 0
# CHECK: :[[#@LINE-1]]: error in check {{.*}}: left side: bad bit slice [70:64]
# bad: nosuch = 0
# CHECK: :[[#@LINE-1]]: error in check 'nosuch = 0': left side: no known address for symbol 'nosuch'
# bad: .Llocal = 0
# CHECK: :[[#@LINE-1]]: error in check {{.*}}: left side: no known address for symbol '.Llocal' (assembler-local labels are not kept
# bad: main
# CHECK: :[[#@LINE-1]]: error in check 'main': no '=' in rule: a rule reads 'LHS = RHS'
# bad: = main
# CHECK: :[[#@LINE-1]]: error in check '= main': empty left side
# bad: main + = 1
# CHECK: :[[#@LINE-1]]: error in check {{.*}}: left side: unexpected end of expression, expected an expression
# bad: main % 2 = 0
# CHECK: :[[#@LINE-1]]: error in check {{.*}}: left side: unexpected '%', expected an operator or the end of the expression
# bad: 0x = 0
# CHECK: :[[#@LINE-1]]: error in check {{.*}}: left side: malformed number '0x': no digits after '0x'
# bad: 12ab = 0
# CHECK: :[[#@LINE-1]]: error in check {{.*}}: left side: malformed number '12ab'
# bad: 99999999999999999999999 = 0
# CHECK: :[[#@LINE-1]]: error in check {{.*}}: left side: number '99999999999999999999999' does not fit in 64 bits
# bad: decode_operand(main) = 0
# CHECK: :[[#@LINE-1]]: error in check {{.*}}: left side: unexpected ')', expected ',' before the operand index
# bad: decode_operand(main, 9) = 0
# CHECK: :[[#@LINE-1]]: error in check {{.*}}: left side: operand index 9 is out of range for 'main': CALL64pcrel32 -5 has 1 operands
# bad: decode_operand(data_label, 0) = 0
# CHECK: :[[#@LINE-1]]: error in check {{.*}}: left side: cannot decode the instruction at 'data_label' (0x{{[0-9a-f]+}}): x86-64: not an instruction form fixups use (bytes 0f 0b 0f 0b 0f 0b 0f 0b)
# bad: next_pc(nosuch) = 0
# CHECK: :[[#@LINE-1]]: error in check {{.*}}: left side: no known address for symbol 'nosuch'
# bad: decode_operand = 0
# CHECK: :[[#@LINE-1]]: error in check {{.*}}: left side: unexpected end of expression, expected '(' after decode_operand
# bad: got_addr(nofile.o, main) = 0
# CHECK: :[[#@LINE-1]]: error in check {{.*}}: left side: no linked file named 'nofile.o' (linked: {{.*}}m.o)
# bad: got_addr(m.o, main) = 0
# CHECK: :[[#@LINE-1]]: error in check {{.*}}: left side: {{.*}}m.o has no GOT entry for 'main'
# bad: stub_addr(m.o, main) = 0
# CHECK: :[[#@LINE-1]]: error in check {{.*}}: left side: {{.*}}m.o has no stub for 'main'
# bad: section_addr(m.o, .nosection) = 0
# CHECK: :[[#@LINE-1]]: error in check {{.*}}: left side: {{.*}}m.o has no section '.nosection' in linked memory
# bad: got_addr(m.o) = 0
# CHECK: :[[#@LINE-1]]: error in check {{.*}}: left side: unexpected ')', expected a file name and ','
# bad: *{8}0x10 = 0
# CHECK: :[[#@LINE-1]]: error in check {{.*}}: left side: address 0x10 is in no linked section
# A load may run past its section into the segment's page (as llvm-jitlink
# reads it), not past that page: page_tail's section ends the segment on a
# page boundary.
# bad: *{8}page_tail = 0
# CHECK: :[[#@LINE-1]]: error in check {{.*}}: left side: load of 8 bytes at 0x{{[0-9a-f]+}} runs past the end of its section
# bad: (((((((((((main = 0
# CHECK: :[[#@LINE-1]]: error in check {{.*}}: left side: unexpected end of expression, expected ')'
# A continuation with no next line still runs.
# bad: main = 0 \
# CHECK: :[[#@LINE-1]]: check failed: 'main = 0': left side is
# CHECK: check_malformed.s: 30 of 30 checks failed
