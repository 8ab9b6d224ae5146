# llvm-jitlink's -all_load: every object member of every archive joins the
# link (named archive[index](member), as ORC names them), needed or not;
# without it, only the members that define a needed symbol. A member that is
# no object (here a text file) is skipped.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-unknown-linux -filetype=obj -o %t/main.o %s
# RUN: llvm-mc -triple=x86_64-unknown-linux -filetype=obj -o %t/foo.o %S/Inputs/cli_all_load_foo.s
# RUN: llvm-mc -triple=x86_64-unknown-linux -filetype=obj -o %t/bar.o %S/Inputs/cli_all_load_bar.s
# RUN: echo "not an object" > %t/notes.txt
# RUN: llvm-ar crs %t/libFoo.a %t/foo.o %t/notes.txt %t/bar.o
# RUN: linklab -noexec -no-process-syms -all_load -show-init-es %t/main.o -L%t -lFoo \
# RUN:   | FileCheck --check-prefix=ALL %s
# RUN: linklab -noexec -no-process-syms -show-init-es -show-entry-es %t/main.o -L%t -lFoo \
# RUN:   | FileCheck --check-prefix=NEEDED %s
# An archive given by path loads whole too:
# RUN: linklab -noexec -no-process-syms -all_load -show-init-es %t/main.o %t/libFoo.a \
# RUN:   | FileCheck --check-prefix=ALL %s

# ALL-DAG: "main": <not resolved>  [Callable] Never-Searched (Materializer 0x{{[0-9a-f]+}}, {{.*}}main.o)
# ALL-DAG: "foo": <not resolved>  [Callable] Never-Searched (Materializer 0x{{[0-9a-f]+}}, {{.*}}libFoo.a[0](foo.o))
# ALL-DAG: "bar": <not resolved>  [Callable] Never-Searched (Materializer 0x{{[0-9a-f]+}}, {{.*}}libFoo.a[2](bar.o))

# NEEDED:      JITDylib "main"
# NEEDED-NEXT: Link order:
# NEEDED-NEXT: Symbol table:
# NEEDED-NEXT:     "main": <not resolved>  [Callable] Never-Searched
# NEEDED:      JITDylib "main"
# NEEDED-NEXT: Link order:
# NEEDED-NEXT: Symbol table:
# NEEDED-NEXT:     "foo": 0x{{[0-9a-f]+}} [Callable] Ready
# NEEDED-NEXT:     "main": 0x{{[0-9a-f]+}} [Callable] Ready
# NEEDED-NOT:  "bar"

	.text
	.globl	main
	.type	main,@function
main:
	jmp	foo
