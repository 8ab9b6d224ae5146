# REQUIRES-LINKLAB-ONLY: the errors name what is wrong in linklab's words (llvm-jitlink-22 says "not a valid object file")
# Malformed universal MachO files are errors naming the file and the fault:
# a header listing more slices than the file holds, and a slice past the
# file's end.
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=x86_64-apple-macosx -filetype=obj -o %t/x86_64.o %s
# RUN: llvm-lipo -create -output %t/universal.o -arch x86_64 %t/x86_64.o
# RUN: head -c 20 %t/universal.o > %t/short.o
# RUN: not linklab -noexec %t/short.o 2>&1 | FileCheck --check-prefix=SHORT %s
# RUN: printf '\xca\xfe\xba\xbe\x00\x00\x00\x01\x01\x00\x00\x07\x00\x00\x00\x03\x00\x00\x10\x00\x00\x00\x01\x00\x00\x00\x00\x0c' > %t/past.o
# RUN: not linklab -noexec %t/past.o 2>&1 | FileCheck --check-prefix=PAST %s
# SHORT: short.o: universal header lists 1 slices but the file ends at 0x14
# PAST: past.o: slice 0 (x86_64) at 0x1000, 0x100 bytes, runs past the file's end (0x1c)

	.section	__TEXT,__text,regular,pure_instructions
	.globl	_main
_main:
	retq
