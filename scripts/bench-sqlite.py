#!/usr/bin/env python3
"""Times `linklab -noexec` against `llvm-jitlink-22 -noexec` on the objects of
Debian's libsqlite3.a (entry sqlite3_open, libc resolved by -phony-externals)
and prints the medians and their ratio. Target: linklab <= 0.25x llvm-jitlink (the link-speed issue's figure).

usage: scripts/bench-sqlite.py [--linklab PATH] [--runs N] [--enforce]
"""
import argparse, os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCHIVE = "/usr/lib/x86_64-linux-gnu/libsqlite3.a"


def time_runs(cmd, runs, cwd):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            sys.exit(f"{cmd[0]} failed: {proc.stderr.decode()}")
    return statistics.median(times), min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--linklab", default=os.path.join(ROOT, "build", "core", "linklab"))
    ap.add_argument("--reference", default="llvm-jitlink-22")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--enforce", action="store_true", help="exit 1 if the ratio misses the 0.25 target")
    args = ap.parse_args()
    if not os.path.exists(ARCHIVE):
        sys.exit(f"{ARCHIVE} is missing: apt-get install libsqlite3-dev")
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["ar", "x", ARCHIVE], cwd=tmp, check=True)
        objects = sorted(f for f in os.listdir(tmp) if f.endswith(".o"))
        # The same work for both: libc calls stay phony (no C runtime linked, no
        # host process symbols).
        common = ["-noexec", "-no-process-syms", "-entry=sqlite3_open", "-phony-externals"] + objects
        ours = time_runs([args.linklab] + common, args.runs, tmp)
        ref = time_runs([args.reference] + common, args.runs, tmp)
    ratio = ours[0] / ref[0]
    print(f"sqlite3 ({len(objects)} objects), median of {args.runs} runs, whole process:")
    print(f"  linklab       {ours[0] * 1000:8.2f} ms (min {ours[1] * 1000:.2f})")
    print(f"  llvm-jitlink  {ref[0] * 1000:8.2f} ms (min {ref[1] * 1000:.2f})")
    print(f"  ratio linklab/llvm-jitlink = {ratio:.3f} (target <= 0.25)")
    if args.enforce and ratio > 0.25:
        sys.exit(1)


if __name__ == "__main__":
    main()
