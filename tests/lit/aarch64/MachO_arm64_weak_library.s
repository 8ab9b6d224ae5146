# -weak_library FILE: every symbol FILE's interface exports for the link's
# arch resolves to null (ld64's weak linking against a library missing at
# run time). FILE is a text stub (.tbd, v3 or v4) or a MachO dylib,
# universal or not. An arm64 link takes an arm64e interface when there is
# no arm64 one; an arm64e link takes only arm64e. A symbol the objects
# define is theirs, not the library's.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -triple=arm64-apple-darwin19 -filetype=obj -o %t/main.o %s
# RUN: llvm-mc -triple=arm64e-apple-darwin19 -filetype=obj -o %t/main-e.o %s
# RUN: llvm-mc -triple=arm64-apple-darwin19 -filetype=obj --defsym DEFINE_BAR=1 -o %t/own.o %s
# -phony-externals resolves every missing name to null as well (the first
# linklab line: the package's tests compare it, and linklab-run has no
# -weak_library).
# RUN: linklab -noexec -phony-externals -check=%s %t/main.o
# RUN: linklab -noexec -check=%s %t/main.o -weak_library %S/Inputs/MachO_libBar_arm64e.tbd
# RUN: linklab -noexec -check=%s -check-name=e-check %t/main-e.o -weak_library %S/Inputs/MachO_libBar_arm64e.tbd
# RUN: linklab -noexec -check=%s %t/main.o -weak_library %S/Inputs/MachO_libBar_v3.tbd
# RUN: linklab -noexec -check=%s -check-name=own-check %t/own.o -weak_library %S/Inputs/MachO_libBar_v3.tbd
#
# Without the library the references are missing; an arm64e link refuses an
# arm64-only interface.
# RUN: not linklab -noexec %t/main.o 2>&1 | FileCheck -check-prefix=MISSING %s
# RUN: not linklab -noexec %t/main-e.o -weak_library %S/Inputs/MachO_libBar_v3.tbd 2>&1 \
# RUN:   | FileCheck -check-prefix=NOSLICE %s
#
# MISSING: Symbols not found: [ {{.*}}_bar
# NOSLICE: MachO interface file at {{.*}}MachO_libBar_v3.tbd does not contain a compatible slice for arm64e-apple-darwin

# jitlink-check: *{8}(got_addr(main.o, _bar)) = 0
# jitlink-check: *{8}(got_addr(main.o, _bar_weak)) = 0
# jitlink-check: *{8}(got_addr(main.o, Widget)) = 0
# e-check: *{8}(got_addr(main-e.o, _bar)) = 0
# e-check: *{8}(got_addr(main-e.o, Widget)) = 0
# own-check: *{8}(got_addr(own.o, _bar)) = _bar

        .section  __TEXT,__text,regular,pure_instructions
        .globl  _main
        .p2align  2
_main:
        adrp    x0, _bar@GOTPAGE
        ldr     x0, [x0, _bar@GOTPAGEOFF]
        adrp    x1, _bar_weak@GOTPAGE
        ldr     x1, [x1, _bar_weak@GOTPAGEOFF]
        adrp    x2, Widget@GOTPAGE
        ldr     x2, [x2, Widget@GOTPAGEOFF]
        ret

.ifdef DEFINE_BAR
        .globl  _bar
        .p2align  2
_bar:
        ret
.endif

        .subsections_via_symbols
