#!/usr/bin/env python3
"""Differential runs of Csmith's random C programs: linklab against the
ordinary static link of the same objects.

Each seed's program (`csmith --seed S`) is compiled once per arch and
optimisation level by clang-22; the objects are then run twice: by
`linklab prog.o` (linked with the arch's glibc in linklab-executor) and
linked by `clang-22 -fuse-ld=lld -static` against the same glibc and run
under qemu-user (natively on x86-64, and on i386 where the kernel runs
32-bit programs). Exit code, stdout and stderr must be equal. A seed whose
reference run does not end within --timeout is skipped, its other cases
too (Csmith's programs may loop for very long), unless --strict, where it
fails: the test command runs a few fixed seeds so.

Every disagreement leaves its source, objects and both outputs in --keep
(default: a folder the script names), with the commands to reproduce it.

usage: scripts/csmith-diff.py [--linklab PATH] [--seeds A-B|A,B,...] [--arch A ...] [--opt=LEVEL ...]
                              [--timeout S] [--jobs N] [--keep DIR] [--strict] [--csmith-option OPT ...]
The closing line is 'csmith-diff: N passed, N failed, N skipped'; exit 1 on a failure.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Csmith's headers, and what clang-22 must accept in its programs (with
# --float they pass float pointers where they declare char pointers).
CSMITH_FLAGS = ["-w", "-Wno-error=incompatible-pointer-types", "-I", "/usr/include/csmith"]

# arch -> clang-22 flags, the qemu-user binary that runs the reference
# (None: the host runs it).
ARCHES = {
    "x86_64": (["--target=x86_64-linux-gnu"], None),
    "aarch64": (["--target=aarch64-linux-gnu"], "qemu-aarch64"),
    "riscv64": (["--target=riscv64-linux-gnu", "-march=rv64gc"], "qemu-riscv64"),
    "i386": (["--target=i386-linux-gnu", "-idirafter", "/usr/include/x86_64-linux-gnu"], "qemu-i386"),
    "arm": (["--target=armv7a-linux-gnueabihf"], "qemu-arm"),
}


def host_runs_i386(tmp):
    """Whether this kernel runs i386 programs (without it, qemu-i386 does)."""
    src, exe = os.path.join(tmp, "probe.s"), os.path.join(tmp, "probe")
    with open(src, "w") as f:
        f.write(".globl _start\n_start: mov $1,%eax\nxor %ebx,%ebx\nint $0x80\n")
    if subprocess.run(["gcc", "-m32", "-nostdlib", "-static", src, "-o", exe], capture_output=True).returncode:
        return False
    try:
        return subprocess.run([exe], capture_output=True, timeout=10).returncode == 0
    except OSError:
        return False


def run(cmd, timeout, cwd):
    """(exit code, stdout, stderr), or None when it did not end within timeout."""
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def check(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(f"{' '.join(cmd)}: {p.stderr.strip().splitlines()[0] if p.stderr.strip() else p.returncode}")


def one_case(args, seed, arch, opt, native_i386, work, endless):
    """('pass' | 'fail' | 'skip', message) for one seed, arch and level.
    endless: the seeds whose reference did not end (skipped from then on)."""
    if seed in endless and not args.strict:
        return "skip", f"s{seed}-{arch}{opt}: the seed's reference did not end before"
    flags, qemu = ARCHES[arch]
    if arch == "i386" and native_i386:
        qemu = None
    tag = f"s{seed}-{arch}{opt}"
    d = os.path.join(work, tag)
    os.makedirs(d, exist_ok=True)
    src = os.path.join(work, f"s{seed}.c")
    obj, exe = os.path.join(d, "prog.o"), os.path.join(d, "prog")
    compile_cmd = ["clang-22", "-c", opt, *flags, *CSMITH_FLAGS, src, "-o", obj]
    link_cmd = ["clang-22", *flags, "-fuse-ld=lld", "-static", obj, "-o", exe]
    check(compile_cmd, d)
    check(link_cmd, d)
    ref_cmd = ([qemu] if qemu else []) + [exe]
    ref = run(ref_cmd, args.timeout, d)
    if ref is None:
        endless.add(seed)
        return ("fail" if args.strict else "skip"), f"{tag}: the reference did not end within {args.timeout} s"
    # linklab's own limit ends the run first; the subprocess limit is for an executor that hangs.
    ll_cmd = [args.linklab, f"-timeout-ms={int(args.timeout * 1000 * args.slack)}", obj]
    ll = run(ll_cmd, args.timeout * args.slack + 30, d)
    if ll == ref:
        shutil.rmtree(d)
        return "pass", tag
    with open(os.path.join(d, "reproduce.sh"), "w") as f:
        f.write(f"# seed {seed}, {arch} {opt}\n{' '.join(compile_cmd)}\n{' '.join(link_cmd)}\n"
                f"{' '.join(ref_cmd)}\n{' '.join(ll_cmd)}\n")
    for name, result in (("reference", ref), ("linklab", ll)):
        with open(os.path.join(d, name + ".out"), "w") as f:
            f.write("(did not end)\n" if result is None else f"exit {result[0]}\n--- stdout\n{result[1]}--- stderr\n{result[2]}")
    if ll is None:
        why = "linklab did not end"
    elif ll[0] != ref[0]:
        why = f"linklab exited {ll[0]}, the reference {ref[0]}" + (f": {ll[2].strip().splitlines()[-1]}" if ll[2].strip() else "")
    else:
        why = "same exit code, different " + ("stdout" if ll[1] != ref[1] else "stderr")
    return "fail", f"{tag}: {why} (kept in {d})"


def parse_seeds(text):
    seeds = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        seeds += range(int(lo), int(hi or lo) + 1)
    return seeds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--linklab", default=os.path.join(ROOT, "build", "core", "linklab"))
    ap.add_argument("--seeds", default="1-20", help="A-B or A,B,C (combinable: 1-5,9)")
    ap.add_argument("--arch", action="append", choices=sorted(ARCHES), help="default: all five")
    ap.add_argument("--opt", action="append", help="clang optimisation levels (default: -O0 and -O2)")
    ap.add_argument("--timeout", type=float, default=10, help="seconds the reference may run")
    ap.add_argument("--slack", type=float, default=3, help="linklab may run this many times the reference's limit")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--keep", help="folder for the disagreements (default: a new one in /tmp)")
    ap.add_argument("--strict", action="store_true", help="a reference that does not end is a failure")
    ap.add_argument("--csmith-option", action="append", default=[], help="passed to csmith (e.g. --no-bitfields)")
    args = ap.parse_args()
    args.linklab = os.path.abspath(args.linklab)
    if not os.path.exists(args.linklab):
        sys.exit(f"csmith-diff: {args.linklab}: no such file (build linklab first)")
    arches = args.arch or list(ARCHES)
    opts = args.opt or ["-O0", "-O2"]
    work = args.keep or tempfile.mkdtemp(prefix="csmith-diff-")
    # linklab's prepared runtime images: the first program of an arch builds
    # one, the next ones with the same runtime needs run from it.
    os.environ.setdefault("LINKLAB_CACHE", os.path.join(work, "runtime-images"))
    os.makedirs(work, exist_ok=True)
    native_i386 = host_runs_i386(work)
    seeds = parse_seeds(args.seeds)
    for seed in seeds:
        check(["csmith", "--seed", str(seed), *args.csmith_option, "-o", os.path.join(work, f"s{seed}.c")], work)
    counts = {"pass": 0, "fail": 0, "skip": 0}
    cases = [(s, a, o) for s in seeds for a in arches for o in opts]
    endless = set()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(one_case, args, s, a, o, native_i386, work, endless) for s, a, o in cases]
        for f in futures:
            try:
                status, message = f.result()
            except RuntimeError as e:
                status, message = "fail", str(e)
            counts[status] += 1
            if status != "pass":
                print(f"{status.upper()}: {message}", flush=True)
    if not counts["fail"] and not args.keep:
        shutil.rmtree(work)
    print(f"csmith-diff: {counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped")
    sys.exit(1 if counts["fail"] else 0)


if __name__ == "__main__":
    main()
