# llvm-jitlink's -show-init-es and -show-entry-es: the symbol tables (ORC's
# JITDylibs "Process" and "main") before linking and once the entry is
# linked, in ORC's words. Before: every definition unresolved, named with the
# object (or <Absolute Symbols>) that would materialize it. After: what the
# entry's link needed is Ready at its address; what nothing looked up (the
# unused -abs symbol, the object nothing references) stays Never-Searched.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux -filetype=obj -o %t/main.o %s
# RUN: llvm-mc -triple=x86_64-unknown-linux -filetype=obj -o %t/unused.o %S/Inputs/cli_show_es_unused.s
# RUN: linklab -noexec -no-process-syms -slab-allocate 100Kb -slab-address 0x10000000 -slab-page-size 4096 \
# RUN:   -abs used_abs=0x1234 -abs unused_abs=0x5678 -show-init-es -show-entry-es %t/main.o %t/unused.o \
# RUN:   | FileCheck %s
# With a C runtime (the process, to llvm-jitlink): its symbols that main's
# objects reference are listed in "Process", as ORC generates them on lookup.
# RUN: llvm-mc -triple=x86_64-unknown-linux -filetype=obj -o %t/strlen.o %S/Inputs/cli_show_es_process.s
# RUN: linklab -noexec -show-entry-es %t/strlen.o | FileCheck --check-prefix=PROCESS %s
# A run prints them once linked, before main runs:
# RUN: linklab -show-entry-es %t/strlen.o | FileCheck --check-prefix=PROCESS %s

# CHECK:      JITDylib "main" (ES: 0x{{[0-9a-f]+}}, State = Open)
# CHECK-NEXT: Link order: [ ("main", MatchAllSymbols){{.*}} ]
# CHECK-NEXT: Symbol table:
# CHECK-NEXT:     "hidden_data": <not resolved>  [Data][Hidden] Never-Searched (Materializer 0x{{[0-9a-f]+}}, {{.*}}main.o)
# CHECK-NEXT:     "main": <not resolved>  [Callable] Never-Searched (Materializer 0x{{[0-9a-f]+}}, {{.*}}main.o)
# CHECK-NEXT:     "unused": <not resolved>  [Callable] Never-Searched (Materializer 0x{{[0-9a-f]+}}, {{.*}}unused.o)
# CHECK-NEXT:     "unused_abs": <not resolved>  [Data] Never-Searched (Materializer 0x{{[0-9a-f]+}}, <Absolute Symbols>)
# CHECK-NEXT:     "used_abs": <not resolved>  [Data] Never-Searched (Materializer 0x{{[0-9a-f]+}}, <Absolute Symbols>)
# CHECK-NEXT:     "weak_data": <not resolved>  [Data][Weak] Never-Searched (Materializer 0x{{[0-9a-f]+}}, {{.*}}main.o)
# CHECK:      JITDylib "main" (ES: 0x{{[0-9a-f]+}}, State = Open)
# CHECK-NEXT: Link order: [ ("main", MatchAllSymbols){{.*}} ]
# CHECK-NEXT: Symbol table:
# CHECK-NEXT:     "hidden_data": 0x{{[0-9a-f]+}} [Data][Hidden] Ready
# CHECK-NEXT:     "main": 0x{{[0-9a-f]+}} [Callable] Ready
# CHECK-NEXT:     "unused": <not resolved>  [Callable] Never-Searched (Materializer 0x{{[0-9a-f]+}}, {{.*}}unused.o)
# CHECK-NEXT:     "unused_abs": <not resolved>  [Data] Never-Searched (Materializer 0x{{[0-9a-f]+}}, <Absolute Symbols>)
# CHECK-NEXT:     "used_abs": 0x1234 [Data] Ready
# CHECK-NEXT:     "weak_data": 0x{{[0-9a-f]+}} [Data][Weak] Ready

# PROCESS:      JITDylib "Process" (ES: 0x{{[0-9a-f]+}}, State = Open)
# PROCESS-NEXT: Link order: [ ("Process", MatchAllSymbols) ]
# PROCESS-NEXT: Symbol table:
# PROCESS-NEXT:     "strlen": 0x{{[0-9a-f]+}} [Data] Ready
# PROCESS-NEXT: JITDylib "main" (ES: 0x{{[0-9a-f]+}}, State = Open)
# PROCESS-NEXT: Link order: [ ("main", MatchAllSymbols), ("Process", MatchExportedSymbolsOnly) ]
# PROCESS-NEXT: Symbol table:
# PROCESS-NEXT:     "main": 0x{{[0-9a-f]+}} [Callable] Ready

	.text
	.globl	main
	.type	main,@function
main:
	movq	used_abs@GOTPCREL(%rip), %rax
	movl	weak_data(%rip), %eax
	addl	hidden_data(%rip), %eax
	xorl	%eax, %eax
	retq

	.data
	.weak	weak_data
weak_data:
	.long	1
	.globl	hidden_data
	.hidden	hidden_data
hidden_data:
	.long	2
