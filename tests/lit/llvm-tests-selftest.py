#!/usr/bin/env python3
"""Self-test of scripts/llvm-jitlink-tests.py (and run-lit.py --llvm): makes a
folder of LLVM-style tests at run time and checks the table it prints.
Usage: llvm-tests-selftest.py LINKLAB SCRATCH-DIR"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "llvm-jitlink-tests.py")

ASM = """\t.text
\t.globl\tmain
\t.type\tmain,@function
main:
\txorl\t%eax, %eax
\tretq
\t.data
\t.globl\tP
P:
\t.quad\tmain
"""
TESTS = {
    # passes under both: lit's rm/mkdir, %t folders, %/t, -abs, -check
    "x86-64/ELF_pass.s": """# RUN: rm -rf %t && mkdir -p %/t
# RUN: llvm-mc -triple=x86_64-unknown-linux -filetype=obj -o %t/p.o %s
# RUN: llvm-jitlink -noexec -abs X=0x1234 -check=%s %t/p.o
# jitlink-check: *{8}P = main
""" + ASM,
    # `llvm-jitlink` is the linker of the pass: only linklab prints this
    "x86-64/ELF_only_linklab.test": """# RUN: llvm-jitlink -help 2>&1 | FileCheck -check-prefix=USE %s
# USE: USAGE: linklab
""",
    # fails under both, with a FileCheck miss as its reason
    "x86-64/ELF_both_fail.s": """# RUN: llvm-mc -triple=x86_64-unknown-linux -filetype=obj -o %t.o %s
# RUN: llvm-jitlink -noexec %t.o
# RUN: echo linked | FileCheck %s
# CHECK: this text is never printed
""" + ASM,
    # split-file: LLVM's tests keep several inputs in one file
    "x86-64/ELF_split_file.s": """# RUN: rm -rf %t && split-file %s %t
# RUN: llvm-mc -triple=x86_64-unknown-linux -filetype=obj -o %t/main.o %t/main.s
# RUN: llvm-jitlink -noexec %t/main.o
#--- main.s
\t.text
\t.globl\tmain
main:
\tretq
""",
    "x86-64/ELF_needs_asserts.s": "# REQUIRES: asserts\n# RUN: false\n",
    "x86-64/ELF_not_on_linux.s": "# UNSUPPORTED: system-linux\n# RUN: false\n",
    "x86-64/ELF_xfail.s": "# XFAIL: *\n# RUN: not true\n",
    "x86-64/Inputs/helper.s": "# RUN: false\n",  # Inputs/ hold no tests
    "RISCV/ELF_yaml.yaml": """# RUN: yaml2obj -o %t.o %s
# RUN: llvm-jitlink -noexec -check=%s %t.o
# jitlink-check: *{4}P = 42
--- !ELF
FileHeader:
  Class:   ELFCLASS64
  Data:    ELFDATA2LSB
  Type:    ET_REL
  Machine: EM_RISCV
Sections:
  - Name:         .data
    Type:         SHT_PROGBITS
    Flags:        [ SHF_WRITE, SHF_ALLOC ]
    AddressAlign: 0x4
    Content:      '2A000000'
Symbols:
  - Name:    P
    Type:    STT_OBJECT
    Section: .data
    Binding: STB_GLOBAL
    Size:    0x4
  - Name:    main
    Section: .data
    Binding: STB_GLOBAL
...
""",
}

EXPECT = [
    "arch       total unsupported llvm-jitlink-22 linklab",
    "RISCV          1           0               1       1",
    "x86-64         7           2               3       4",
    "all            8           2               4       5",
    "",
    "linklab failures in x86-64:",
    "  ELF_both_fail.s (llvm-jitlink-22 fails too): RUN line 3: FileCheck CHECK wants "
    "'# CHECK: this text is never printed'; output: 'linked'",
    "    llvm-jitlink-22: RUN line 3: FileCheck CHECK wants '# CHECK: this text is never printed'; output: 'linked'",
]


def main():
    linklab, scratch = sys.argv[1:3]
    shutil.rmtree(scratch, ignore_errors=True)
    for name, text in TESTS.items():
        path = os.path.join(scratch, "tests", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    p = subprocess.run([sys.executable, SCRIPT, "--linklab", linklab, "--out", os.path.join(scratch, "out"),
                        os.path.join(scratch, "tests")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    got = p.stdout.rstrip("\n").split("\n")
    ok = p.returncode == 0 and got == EXPECT
    # bad use is an error, not an empty table
    bad = subprocess.run([sys.executable, SCRIPT, "--linklab", linklab, os.path.join(scratch, "missing")],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    ok &= bad.returncode == 1 and "is not a folder" in bad.stdout
    if not ok:
        print("llvm-jitlink-tests.py printed:\n" + p.stdout + bad.stdout)
        print("expected:\n" + "\n".join(EXPECT))
    print("1 passed, 0 failed" if ok else "0 passed, 1 failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
