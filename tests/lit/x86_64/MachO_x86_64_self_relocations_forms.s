# -add-self-relocations walks _f instruction by instruction: the LEA at its
# end is found only if every instruction before it was measured right.
# Instruction forms whose length depends on prefixes, REX.W, ModRM/SIB,
# displacements and immediates, the 0F, 0F 38 and 0F 3A maps, VEX and EVEX
# come first; both linkers must put the edge at the LEA's displacement (0x150
# into _f).
#
# RUN: llvm-mc -triple=x86_64-apple-macosx10.9 -filetype=obj -o %t.o %s
# RUN: linklab -noexec -show-graphs='self_relocations_forms' %t.o | FileCheck -check-prefix=WITHOUT %s
# RUN: linklab -noexec -add-self-relocations -show-graphs='self_relocations_forms' %t.o | FileCheck %s
#
# WITHOUT: - {{ *}}_f{{$}}
# WITHOUT-NEXT: no edges
#
# CHECK: symbols:
# CHECK: - {{ *}}_f{{$}}
# CHECK-NEXT: edges:
# CHECK-NEXT: (block + 0x00000150), addend = -0x00000004, kind = Delta32, target = _f
# CHECK-NOT: kind =

        .section  __TEXT,__text,regular,pure_instructions
        .globl  _main
_main:
        xorl    %eax, %eax
        retq

        .globl  _f
_f:
        vmovdqu64 (%rdi), %zmm16
        vpternlogd $0xff, %zmm1, %zmm2, %zmm3
        vpcmpeqb %ymm1, %ymm2, %ymm3
        vpshufd $0x1b, %xmm1, %xmm2
        vpalignr $4, %xmm1, %xmm2, %xmm3
        vzeroupper
        pshufb  %xmm1, %xmm2
        palignr $3, %xmm1, %xmm2
        crc32q  %rax, %rcx
        movabsq $0x1122334455667788, %rax
        movw    $0x1234, (%rax)
        testb   $1, 8(%rsp,%rcx,4)
        testl   $0x12345678, (%rax)
        lock cmpxchgq %rcx, (%rdx)
        rep movsb
        enter   $16, $0
        cmovne  %rax, %rbx
        bswap   %eax
        imull   $1000, %eax, %ebx
        nopw    0(%rax,%rax)
        movq    0x12345678(,%rax,8), %rcx
        movq    %fs:0x28, %rax
        cmpl    $1, _f(%rip)
        jne     1f
1:      jmp     2f
        .fill   200, 1, 0x90
2:      leaq    _f(%rip), %rax
        retq    $8

        .subsections_via_symbols
