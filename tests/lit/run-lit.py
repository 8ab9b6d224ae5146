#!/usr/bin/env python3
"""Runs one LLVM-style test file: every `RUN:` line must succeed.

A test is an assembly (or other) file whose comment lines hold `RUN:` commands
(a trailing backslash continues one on the next RUN: line). Substitutions:
  %s  the test file        %S / %p  its directory
  %t  a scratch path       %T  the scratch directory      %%  a literal %
Commands run under bash with pipefail, so pipes and `&&` work as in lit. Tool
names are resolved through a private bin directory put first on PATH:
  llvm-mc, FileCheck, llvm-objdump, llvm-readelf, yaml2obj, clang, ...
      -> Debian's `<tool>-22`
  llvm-jitlink -> llvm-jitlink-22
  linklab      -> the built linklab (pass 1), then llvm-jitlink-22 (pass 2)
  not          -> succeeds when the command fails *without crashing*
So each file runs twice and both linkers must give the same answers, unless
it carries `REQUIRES-LINKLAB-ONLY: <reason>` (the reason is required).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

LLVM_TOOLS = ["llvm-mc", "FileCheck", "llvm-objdump", "llvm-readelf", "llvm-readobj", "yaml2obj",
              "llvm-nm", "llvm-objcopy", "llvm-ar", "clang", "ld.lld", "llvm-jitlink"]

# `not`: inverts the exit status, but a crash (signal, or a shell's 128+N)
# stays a failure, as lit's `not` without --crash, and so does a command
# that is not there (127).
NOT_SCRIPT = """#!/bin/bash
"$@"
rc=$?
if [ $rc -ge 128 ]; then echo "not: '$1' crashed (exit $rc)" >&2; exit 1; fi
if [ $rc -eq 127 ]; then echo "not: '$1' not found" >&2; exit 1; fi
[ $rc -ne 0 ]
"""


def parse_test(path):
    run_lines, linklab_only = [], None
    pending = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for lineno, line in enumerate(f, 1):
            m = re.search(r"\bREQUIRES-LINKLAB-ONLY:(.*)$", line)
            if m:
                linklab_only = m.group(1).strip()
                if not linklab_only:
                    sys.exit(f"{path}:{lineno}: REQUIRES-LINKLAB-ONLY needs a reason")
            m = re.search(r"\bRUN:(.*)$", line)
            if not m:
                if pending is not None:
                    sys.exit(f"{path}:{lineno}: RUN line continued with '\\' but the next line has no RUN:")
                continue
            text = m.group(1).rstrip()
            if pending is None:
                pending = (lineno, "")
            cont = text.endswith("\\")
            pending = (pending[0], pending[1] + (text[:-1] if cont else text) + " ")
            if not cont:
                run_lines.append((pending[0], pending[1].strip()))
                pending = None
    if pending is not None:
        sys.exit(f"{path}: last RUN line ends with '\\'")
    if not run_lines:
        sys.exit(f"{path}: no RUN: lines")
    return run_lines, linklab_only


def substitute(cmd, path, tmp):
    subs = {"s": os.path.abspath(path), "S": os.path.dirname(os.path.abspath(path)),
            "p": os.path.dirname(os.path.abspath(path)), "t": tmp, "T": os.path.dirname(tmp), "%": "%"}

    def repl(m):
        return subs[m.group(1)]
    return re.sub(r"%([sSptT%])", repl, cmd)


def make_bin_dir(bin_dir, linker):
    os.makedirs(bin_dir, exist_ok=True)
    links = {t: shutil.which(f"{t}-22") or shutil.which(t) for t in LLVM_TOOLS}
    links["linklab"] = linker
    for name, target in links.items():
        dst = os.path.join(bin_dir, name)
        if os.path.lexists(dst):
            os.remove(dst)
        if target:
            os.symlink(target, dst)
    with open(os.path.join(bin_dir, "not"), "w") as f:
        f.write(NOT_SCRIPT)
    os.chmod(os.path.join(bin_dir, "not"), 0o755)


def run_pass(name, path, run_lines, linker, out_dir):
    pass_dir = os.path.join(out_dir, name)
    shutil.rmtree(pass_dir, ignore_errors=True)
    os.makedirs(os.path.join(pass_dir, "Output"))
    make_bin_dir(os.path.join(pass_dir, "bin"), linker)
    tmp = os.path.join(pass_dir, "Output", os.path.basename(path) + ".tmp")
    env = dict(os.environ, PATH=os.path.join(pass_dir, "bin") + os.pathsep + os.environ.get("PATH", ""))
    for lineno, cmd in run_lines:
        expanded = substitute(cmd, path, tmp)
        p = subprocess.run(["bash", "-o", "pipefail", "-c", expanded], cwd=os.path.join(pass_dir, "Output"),
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
        if p.returncode != 0:
            print(f"FAIL [{name}] {path}:{lineno}: RUN: {cmd}")
            print(f"  $ {expanded}")
            print(f"  exit status {p.returncode}; output:")
            sys.stdout.write(p.stdout.decode(errors="replace"))
            return False
    print(f"PASS [{name}] {path} ({len(run_lines)} RUN lines)")
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--linklab", required=True, help="the built linklab binary")
    ap.add_argument("--out", required=True, help="scratch directory for this test")
    ap.add_argument("--only", choices=["linklab", "llvm-jitlink"], help="run one pass only")
    ap.add_argument("test")
    a = ap.parse_args()
    run_lines, linklab_only = parse_test(a.test)
    ok = True
    if a.only in (None, "linklab"):
        ok &= run_pass("linklab", a.test, run_lines, os.path.abspath(a.linklab), a.out)
    if a.only in (None, "llvm-jitlink"):
        if linklab_only:
            print(f"SKIP [llvm-jitlink] {a.test}: REQUIRES-LINKLAB-ONLY: {linklab_only}")
        else:
            jl = shutil.which("llvm-jitlink-22")
            if not jl:
                print("FAIL: llvm-jitlink-22 not found on PATH (needed for the second pass)")
                return 1
            ok &= run_pass("llvm-jitlink", a.test, run_lines, jl, a.out)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
