#!/usr/bin/env python3
"""Runs one LLVM-style test file: every `RUN:` line must succeed.

A test is an assembly (or other) file whose comment lines hold `RUN:` commands
(a trailing backslash continues one on the next RUN: line). Substitutions:
  %s  the test file        %S / %p  its directory
  %t  a scratch path       %T  the scratch directory      %%  a literal %
Commands run under bash with pipefail, so pipes and `&&` work as in lit. Tool
names are resolved through a private bin directory put first on PATH:
  llvm-mc, FileCheck, llvm-objdump, llvm-readelf, yaml2obj, split-file, ...
      -> Debian's `<tool>-22`
  llvm-jitlink -> llvm-jitlink-22
  linklab      -> the built linklab (pass 1), then llvm-jitlink-22 (pass 2)
  not          -> succeeds when the command fails *without crashing*
So each file runs twice and both linkers must give the same answers, unless
it carries `REQUIRES-LINKLAB-ONLY: <reason>` (the reason is required).

--llvm runs a test written for LLVM's own lit suite, unchanged: there the
linker is called `llvm-jitlink`, so that name is the linker of the pass
(`--only` picks one), and `REQUIRES:` / `UNSUPPORTED:` / `XFAIL:` lines are
read as lit reads them (boolean expressions over the features in FEATURES).
A test whose requirements are not met is reported UNSUPPORTED, not PASS.
lit's `%/s`-style (slash-normalised) forms and `%{pathsep}` are substituted too.
"""
import argparse
import os
import platform
import re
import shutil
import subprocess
import sys

LLVM_TOOLS = ["llvm-mc", "FileCheck", "llvm-objdump", "llvm-readelf", "llvm-readobj", "yaml2obj",
              "llvm-nm", "llvm-objcopy", "llvm-ar", "llvm-lipo", "split-file", "clang", "ld.lld", "llvm-jitlink"]

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


# What this runner offers to LLVM tests' REQUIRES/UNSUPPORTED/XFAIL lines:
# the targets Debian's LLVM 22 is built with, and the host (lit's `native`:
# code for the host can run here, as llvm-jitlink-22's default target is the
# host's). A release build has no `asserts` (llvm-jitlink-22 refuses
# -debug-only), so tests needing it are unsupported, as on any release LLVM.
HOST = {"x86_64": "x86_64", "aarch64": "aarch64", "riscv64": "riscv64"}.get(platform.machine())
FEATURES = {"shell", "system-linux", "x86-registered-target", "aarch64-registered-target",
            "riscv-registered-target", "arm-registered-target", f"host-byteorder-{sys.byteorder}-endian"}
if HOST:
    FEATURES |= {"native", f"{HOST}-linux"}


def features_hold(expr, features):
    """Evaluates one lit boolean expression (&&, ||, !, parentheses)."""
    tokens = re.findall(r"\(|\)|&&|\|\||!|(?:\{\{.*?\}\}|[^\s()&|!{])+", expr)
    py = []
    for t in tokens:
        # a name may hold lit's `{{regex}}` pieces; it holds if some feature matches
        pattern = "".join(re.escape(x) if i % 2 == 0 else f"(?:{x})"
                          for i, x in enumerate(re.split(r"\{\{(.*?)\}\}", t)))
        py.append({"(": "(", ")": ")", "&&": " and ", "||": " or ", "!": " not "}.get(t)
                  or repr(t == "true" or any(re.fullmatch(pattern, f) for f in features)))
    try:
        return bool(eval("".join(py), {"__builtins__": {}}))
    except SyntaxError:
        raise ValueError(f"cannot read the feature expression '{expr}'")


def requirements(path, features=FEATURES):
    """Why lit would not run this test here (None if it would), and whether it is XFAIL."""
    why, xfail = None, False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.search(r"\b(REQUIRES|UNSUPPORTED|XFAIL):(.*)$", line)
            if not m:
                continue
            kind, exprs = m.group(1), [e.strip() for e in m.group(2).split(",") if e.strip()]
            if kind == "REQUIRES":
                missing = [e for e in exprs if not features_hold(e, features)]
                if missing and why is None:
                    why = "REQUIRES: " + ", ".join(missing)
            elif kind == "UNSUPPORTED":
                hit = [e for e in exprs if e == "*" or features_hold(e, features)]
                if hit and why is None:
                    why = "UNSUPPORTED: " + ", ".join(hit)
            elif any(e == "*" or features_hold(e, features) for e in exprs):
                xfail = True
    return why, xfail


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
            "p": os.path.dirname(os.path.abspath(path)), "t": tmp, "T": os.path.dirname(tmp), "%": "%",
            "{pathsep}": os.pathsep}

    def repl(m):
        return subs[m.group(2)]
    # `%/s` is lit's path with forward slashes: the same path on this host.
    return re.sub(r"%(/?)([sSptT%]|\{pathsep\})", repl, cmd)


def make_bin_dir(bin_dir, linker, llvm_test=False):
    os.makedirs(bin_dir, exist_ok=True)
    links = {t: shutil.which(f"{t}-22") or shutil.which(t) for t in LLVM_TOOLS}
    links["linklab"] = linker
    if llvm_test:  # LLVM's tests call the linker under test `llvm-jitlink`
        links["llvm-jitlink"] = linker
    for name, target in links.items():
        dst = os.path.join(bin_dir, name)
        if os.path.lexists(dst):
            os.remove(dst)
        if target and os.path.basename(os.path.realpath(target)) == "ccache":
            # ccache's compiler links find the compiler by the name they are
            # called by: `clang` would reach another clang than clang-22.
            with open(dst, "w") as f:
                f.write(f'#!/bin/sh\nexec {target} "$@"\n')
            os.chmod(dst, 0o755)
        elif target:
            os.symlink(target, dst)
    with open(os.path.join(bin_dir, "not"), "w") as f:
        f.write(NOT_SCRIPT)
    os.chmod(os.path.join(bin_dir, "not"), 0o755)


def run_pass(name, path, run_lines, linker, out_dir, llvm_test=False, xfail=False):
    pass_dir = os.path.join(out_dir, name)
    shutil.rmtree(pass_dir, ignore_errors=True)
    os.makedirs(os.path.join(pass_dir, "Output"))
    make_bin_dir(os.path.join(pass_dir, "bin"), linker, llvm_test)
    tmp = os.path.join(pass_dir, "Output", os.path.basename(path) + ".tmp")
    env = dict(os.environ, PATH=os.path.join(pass_dir, "bin") + os.pathsep + os.environ.get("PATH", ""))
    for lineno, cmd in run_lines:
        expanded = substitute(cmd, path, tmp)
        p = subprocess.run(["bash", "-o", "pipefail", "-c", expanded], cwd=os.path.join(pass_dir, "Output"),
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
        if p.returncode != 0:
            if xfail:
                print(f"XFAIL [{name}] {path}:{lineno}: fails as its XFAIL line expects")
                return True
            print(f"FAIL [{name}] {path}:{lineno}: RUN: {cmd}")
            print(f"  $ {expanded}")
            print(f"  exit status {p.returncode}; output:")
            sys.stdout.write(p.stdout.decode(errors="replace"))
            return False
    if xfail:
        print(f"XPASS [{name}] {path}: passes, but its XFAIL line expects a failure")
        return False
    print(f"PASS [{name}] {path} ({len(run_lines)} RUN lines)")
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--linklab", required=True, help="the built linklab binary")
    ap.add_argument("--out", required=True, help="scratch directory for this test")
    ap.add_argument("--only", choices=["linklab", "llvm-jitlink"], help="run one pass only")
    ap.add_argument("--llvm", action="store_true",
                    help="the test is one of LLVM's: `llvm-jitlink` is the linker of the pass; obey REQUIRES etc.")
    ap.add_argument("test")
    a = ap.parse_args()
    run_lines, linklab_only = parse_test(a.test)
    xfail = False
    if a.llvm:
        try:
            why, xfail = requirements(a.test)
        except ValueError as e:
            print(f"FAIL {a.test}: {e}")
            return 1
        if why:
            print(f"UNSUPPORTED {a.test}: {why}")
            return 0
    ok = True
    if a.only in (None, "linklab"):
        ok &= run_pass("linklab", a.test, run_lines, os.path.abspath(a.linklab), a.out, a.llvm, xfail)
    if a.only in (None, "llvm-jitlink"):
        if linklab_only:
            print(f"SKIP [llvm-jitlink] {a.test}: REQUIRES-LINKLAB-ONLY: {linklab_only}")
        else:
            jl = shutil.which("llvm-jitlink-22")
            if not jl:
                print("FAIL: llvm-jitlink-22 not found on PATH (needed for the second pass)")
                return 1
            ok &= run_pass("llvm-jitlink", a.test, run_lines, jl, a.out, a.llvm, xfail)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
