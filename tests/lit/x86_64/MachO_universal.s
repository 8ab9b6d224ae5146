# Universal (fat) MachO files, as llvm-lipo writes them: the link takes the
# slice of its triple (-triple, else the other objects'), for an object and
# for an archive alike. A triple no slice has is refused in llvm-jitlink's
# words.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-apple-macosx -filetype=obj -o %t/x86_64.o %s
# RUN: llvm-mc -triple=arm64-apple-macosx -filetype=obj -o %t/arm64.o %S/Inputs/MachO_universal_arm64.s
# RUN: llvm-lipo -create -output %t/universal.o -arch x86_64 %t/x86_64.o -arch arm64 %t/arm64.o
# RUN: linklab -noexec -triple arm64-apple-macosx -check=%S/Inputs/MachO_universal_arm64.s %t/universal.o
# RUN: linklab -noexec -triple x86_64-apple-macosx -check=%s %t/universal.o
# The other objects name the arch: an x86-64 main, the universal file's x86-64 helper.
# RUN: llvm-mc -triple=x86_64-apple-macosx -filetype=obj -o %t/main.o %S/Inputs/MachO_universal_main.s
# RUN: llvm-ar crs %t/libx.a %t/x86_64.o
# RUN: llvm-ar crs %t/liba.a %t/arm64.o
# RUN: llvm-lipo -create -output %t/libu.a -arch x86_64 %t/libx.a -arch arm64 %t/liba.a
# RUN: linklab -noexec -check=%s %t/main.o %t/universal.o
# RUN: linklab -noexec -check=%s %t/main.o -L%t -lu
# RUN: not linklab -noexec -triple riscv64-linux-gnu %t/universal.o 2>&1 | FileCheck --check-prefix=NOSLICE %s
# NOSLICE: universal.o does not contain a relocatable object file or archive compatible with riscv64

# jitlink-check: *{4}_slice_value = 0x86

	.section	__TEXT,__text,regular,pure_instructions
	.globl	_main
	.p2align	4, 0x90
_main:
	movl	_slice_value(%rip), %eax
	retq

	.section	__DATA,__data
	.globl	_slice_value
	.p2align	2
_slice_value:
	.long	0x86

.subsections_via_symbols
