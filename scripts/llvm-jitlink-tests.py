#!/usr/bin/env python3
"""Runs LLVM's own JITLink regression tests, unchanged, under linklab and llvm-jitlink-22.

Give it a folder of LLVM tests (e.g. copies of llvm/test/ExecutionEngine/JITLink/
{x86-64,AArch64,RISCV}/ELF_*; they stay outside this repo): each subfolder is an
arch, and each *.s / *.test / *.yaml in it (not in Inputs/) a test. Every test runs
through tests/lit/run-lit.py --llvm once per linker; the table gives per arch the
tests, those lit would not run here (REQUIRES/UNSUPPORTED), and the passes of
each linker, then every linklab failure with the first line of its reason.
Exit status: 0 when the table was made (failures are the table's news), 1 on bad use.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

RUN_LIT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "lit", "run-lit.py")
LINKERS = ["llvm-jitlink", "linklab"]


def find_tests(folder):
    tests = {}
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != "Inputs")
        arch = os.path.relpath(root, folder)
        for f in sorted(files):
            if f.endswith((".s", ".test", ".yaml")):
                tests.setdefault("." if arch == "." else arch, []).append(os.path.join(root, f))
    return tests


def run_one(test, linker, linklab, out):
    """(status, reason): status is PASS, FAIL or UNSUPPORTED."""
    p = subprocess.run([sys.executable, RUN_LIT, "--llvm", "--only", linker, "--linklab", linklab,
                        "--out", out, test], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    lines = p.stdout.decode(errors="replace").splitlines()
    first = lines[0] if lines else ""
    if first.startswith("UNSUPPORTED"):
        return "UNSUPPORTED", first.split(": ", 1)[-1]
    if p.returncode == 0 and first.startswith(("PASS", "XFAIL")):
        return "PASS", ""
    # run-lit prints the RUN line, the expanded command, the status, then the output
    m = re.match(r"FAIL \[[^]]*\] [^:]*:(\d+):", first)
    return "FAIL", (f"RUN line {m.group(1)}: " if m else "") + reason_of(lines[3:] if m else lines)


def reason_of(out):
    """The first line that says why: a FileCheck miss (with what the linker printed), else an error."""
    for i, l in enumerate(out):
        fc = re.search(r"error: (\S+): expected string not found", l)
        if fc:
            want = out[i + 1].strip() if i + 1 < len(out) else ""
            got = next((out[j + 1].strip() for j in range(i, len(out) - 1) if "scanning from here" in out[j]), "")
            return f"FileCheck {fc.group(1)} wants '{want}'; output: '{got}'"
    for l in out:
        if re.search(r"error|check failed|not found|crashed", l):
            return l.strip()
    return next((l.strip() for l in out if l.strip()), "(no output)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--linklab", required=True, help="the built linklab binary")
    ap.add_argument("--out", default="/tmp/llvm-jitlink-tests-out", help="scratch directory")
    ap.add_argument("-j", type=int, default=2, help="tests at once")
    ap.add_argument("folder")
    a = ap.parse_args()
    if not os.path.isdir(a.folder):
        print(f"llvm-jitlink-tests: '{a.folder}' is not a folder", file=sys.stderr)
        return 1
    if not os.access(a.linklab, os.X_OK):
        print(f"llvm-jitlink-tests: '{a.linklab}' is not an executable linklab", file=sys.stderr)
        return 1
    tests = find_tests(a.folder)
    if not tests:
        print(f"llvm-jitlink-tests: no *.s, *.test or *.yaml tests under '{a.folder}'", file=sys.stderr)
        return 1
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(max(1, a.j)) as pool:
        for arch, files in tests.items():
            for t in files:
                for linker in LINKERS:
                    out = os.path.join(a.out, arch, os.path.basename(t))
                    jobs[(arch, t, linker)] = pool.submit(run_one, t, linker, os.path.abspath(a.linklab), out)
    res = {k: f.result() for k, f in jobs.items()}
    print(f"{'arch':<10} {'total':>5} {'unsupported':>11} {'llvm-jitlink-22':>15} {'linklab':>7}")
    sums = [0, 0, 0, 0]
    for arch, files in tests.items():
        row = [len(files), sum(res[(arch, t, "linklab")][0] == "UNSUPPORTED" for t in files)]
        row += [sum(res[(arch, t, l)][0] == "PASS" for t in files) for l in LINKERS]
        sums = [x + y for x, y in zip(sums, row)]
        print(f"{arch:<10} {row[0]:>5} {row[1]:>11} {row[2]:>15} {row[3]:>7}")
    print(f"{'all':<10} {sums[0]:>5} {sums[1]:>11} {sums[2]:>15} {sums[3]:>7}")
    for arch, files in tests.items():
        fails = [(t, res[(arch, t, "linklab")][1]) for t in files if res[(arch, t, "linklab")][0] == "FAIL"]
        if fails:
            print(f"\nlinklab failures in {arch}:")
            for t, why in fails:
                ref, ref_why = res[(arch, t, "llvm-jitlink")]
                print(f"  {os.path.basename(t)} (llvm-jitlink-22 {'passes' if ref == 'PASS' else 'fails too'}): {why}")
                if ref != "PASS":
                    print(f"    llvm-jitlink-22: {ref_why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
