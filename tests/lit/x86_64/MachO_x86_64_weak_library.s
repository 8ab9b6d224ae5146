# -weak_library with a MachO dylib: the slice of the link's arch (a thin
# dylib, or one slice of a universal one) gives the names that resolve to
# null. A file that is neither a dylib nor a text stub is refused.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: yaml2obj %S/Inputs/MachO_libQux_universal.yaml -o %t/libQux.dylib
# RUN: llvm-lipo %t/libQux.dylib -thin x86_64 -output %t/libQux.x86_64.dylib
# RUN: llvm-mc -triple=x86_64-apple-macosx10.9 -filetype=obj -o %t/main.o %s
# RUN: linklab -noexec -phony-externals -check=%s %t/main.o
# RUN: linklab -noexec -check=%s %t/main.o -weak_library %t/libQux.dylib
# RUN: linklab -noexec -check=%s %t/main.o -weak_library %t/libQux.x86_64.dylib
# RUN: not linklab -noexec %t/main.o -weak_library %t/main.o 2>&1 | FileCheck -check-prefix=NOTDYLIB %s
#
# NOTDYLIB: Cannot get interface for {{.*}}main.o unrecognized file type

# jitlink-check: *{8}(got_addr(main.o, _qux)) = 0
# jitlink-check: *{8}(got_addr(main.o, _qux_data)) = 0

        .section  __TEXT,__text,regular,pure_instructions
        .globl  _main
        .p2align  4, 0x90
_main:
        movq    _qux@GOTPCREL(%rip), %rax
        movq    _qux_data@GOTPCREL(%rip), %rax
        retq

        .subsections_via_symbols
