#!/usr/bin/env python3
"""Emulation speed: one CPU-bound freestanding C function (a sieve, a matrix
multiply and a CRC loop) run by `linklab -runtime=none -entry=bench` (linked
into linklab-executor, Unicorn) against the same object statically linked
with ld.lld-22 behind a tiny `_start` and run under qemu-user. Both times are
whole-command wall times (linklab: spawn the executor, link, run; qemu: load,
run), median of N runs; the ratio linklab/qemu is the figure the issue
targets (<= 1.2x). Both runs must exit with the same checksum byte. The
"startup" column is linklab on an empty `bench` (spawn, link, run nothing):
the part of the linklab time that is not emulation.

Unicorn 2.0.x (Debian bookworm's) sends every guest store through QEMU's
not-dirty slow path and never grows its TLB (AArch64's 1 KiB pages then
thrash it); emulator/unicorn_quirks.cpp removes the per-store allocation,
lets stores to never-executable writable pages take the inline fast path
again (unicorn #1970), lets QEMU grow the TLB, and drops the per-access
stop checks in unbudgeted runs; the wall-time limit is the executor's own
watchdog rather than Unicorn's polling timeout thread (see its comments).
emulator/direct_memory.cpp then takes QEMU's software TLB out of guest
loads and stores, as qemu-user has none: --softmmu adds a column with that
turned off (LINKLAB_EXECUTOR_SOFTMMU=1) to show what it is worth.

usage: scripts/bench-exec.py [--linklab PATH] [--runs N] [--scale N] [--arch A ...] [--softmmu] [--enforce]
"""
import argparse, os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = 1.2

# arch -> clang target flags, qemu binary, _start (calls bench, exits with
# its result through the raw Linux exit_group syscall).
ARCHES = {
    "x86_64": (["--target=x86_64-linux-gnu"], "qemu-x86_64",
               "call bench\n mov %eax, %edi\n mov $231, %eax\n syscall\n"),
    "aarch64": (["--target=aarch64-linux-gnu"], "qemu-aarch64",
                "bl bench\n mov x8, #94\n svc #0\n"),
    "riscv64": (["--target=riscv64-linux-gnu", "-march=rv64gc"], "qemu-riscv64",
                "call bench\n li a7, 94\n ecall\n"),
}

BENCH_C = r"""
typedef unsigned int u32;
typedef unsigned long u64;
#define SCALE %(scale)d

static unsigned char Sieve[1 << 20];
static u32 A[64][64], B[64][64], C[64][64];

static u32 sieve(void) {
  u32 Count = 0;
  for (u32 I = 0; I < sizeof Sieve; ++I) Sieve[I] = 1;
  for (u32 I = 2; I < sizeof Sieve; ++I)
    if (Sieve[I]) {
      ++Count;
      for (u32 J = 2 * I; J < sizeof Sieve; J += I) Sieve[J] = 0;
    }
  return Count;
}

static u32 matmul(u32 Seed) {
  for (u32 I = 0; I < 64; ++I)
    for (u32 J = 0; J < 64; ++J) A[I][J] = Seed + I * 7 + J, B[I][J] = Seed ^ (I * 13 + J * 3);
  for (u32 I = 0; I < 64; ++I)
    for (u32 J = 0; J < 64; ++J) {
      u32 S = 0;
      for (u32 K = 0; K < 64; ++K) S += A[I][K] * B[K][J];
      C[I][J] = S;
    }
  u32 X = 0;
  for (u32 I = 0; I < 64; ++I) X ^= C[I][I] + C[I][63 - I];
  return X;
}

static u32 crc32(const unsigned char *P, u64 N, u32 Crc) {
  Crc = ~Crc;
  while (N--) {
    Crc ^= *P++;
    for (int K = 0; K < 8; ++K) Crc = (Crc >> 1) ^ (0xedb88320u & -(Crc & 1));
  }
  return ~Crc;
}

int bench(void) {
  u32 X = 0;
  for (int R = 0; R < SCALE; ++R) {
    X += sieve();
    X ^= matmul(X);
    X = crc32(Sieve, 1 << 18, X);
  }
  return (int)(X ^ (X >> 8) ^ (X >> 16) ^ (X >> 24)) & 0xff;
}
"""


def run(cmd, cwd, env=None):
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def timed(cmd, cwd, runs, env=None):
    times, codes = [], set()
    for _ in range(runs):
        start = time.perf_counter()
        proc = run(cmd, cwd, env)
        times.append(time.perf_counter() - start)
        codes.add(proc.returncode)
        if proc.stderr.strip():
            sys.exit(f"{' '.join(cmd)}: {proc.stderr.strip()}")
    if len(codes) != 1:
        sys.exit(f"{' '.join(cmd)}: exit codes differ between runs: {sorted(codes)}")
    return statistics.median(times), codes.pop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--linklab", default=os.path.join(ROOT, "build", "core", "linklab"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--scale", type=int, default=6, help="outer iterations of the workload")
    ap.add_argument("--opt", default="-O2")
    ap.add_argument("--arch", action="append", choices=sorted(ARCHES), help="default: all")
    ap.add_argument("--softmmu", action="store_true", help="also time linklab with direct guest memory off")
    ap.add_argument("--enforce", action="store_true", help=f"exit 1 if an arch misses {TARGET}x")
    args = ap.parse_args()
    args.linklab = os.path.abspath(args.linklab)
    missed = []
    with tempfile.TemporaryDirectory(prefix="bench-exec-") as tmp:
        with open(os.path.join(tmp, "bench.c"), "w") as f:
            f.write(BENCH_C % {"scale": args.scale})
        print(f"workload: sieve(1M) + matmul(64) + crc32(256K) x {args.scale}, {args.opt}; "
              f"linklab runs `-runtime=none -entry=bench` (no C runtime); median of {args.runs}")
        soft = f" {'softmmu s':>10} {'ratio':>7}" if args.softmmu else ""
        print(f"{'arch':8} {'linklab s':>10} {'startup s':>10} {'qemu s':>10} {'ratio':>7}{soft}  exit")
        for arch in args.arch or ARCHES:
            flags, qemu, start = ARCHES[arch]
            obj, exe = f"bench-{arch}.o", f"bench-{arch}"
            with open(os.path.join(tmp, "empty.c"), "w") as f:
                f.write("int bench(void) { return 0; }\n")
            cc = ["clang-22", *flags, args.opt, "-ffreestanding", "-fno-stack-protector", "-c"]
            steps = [cc + ["bench.c", "-o", obj], cc + ["empty.c", "-o", f"empty-{arch}.o"]]
            with open(os.path.join(tmp, f"start-{arch}.s"), "w") as f:
                f.write(f".globl _start\n_start:\n {start}")
            steps += [["clang-22", *flags, "-c", f"start-{arch}.s", "-o", f"start-{arch}.o"],
                      ["ld.lld-22", "-static", "-o", exe, f"start-{arch}.o", obj]]
            for cmd in steps:
                proc = run(cmd, tmp)
                if proc.returncode:
                    sys.exit(f"{' '.join(cmd)}: {proc.stderr}")
            ll, ll_code = timed([args.linklab, "-runtime=none", "-entry=bench", obj], tmp, args.runs)
            startup, _ = timed([args.linklab, "-runtime=none", "-entry=bench", f"empty-{arch}.o"], tmp, args.runs)
            qm, qm_code = timed([qemu, exe], tmp, args.runs)
            if ll_code != qm_code:
                sys.exit(f"{arch}: linklab exited {ll_code}, qemu {qm_code}: the runs disagree")
            ratio = ll / qm
            soft = ""
            if args.softmmu:
                env = dict(os.environ, LINKLAB_EXECUTOR_SOFTMMU="1")
                sm, sm_code = timed([args.linklab, "-runtime=none", "-entry=bench", obj], tmp, args.runs, env)
                if sm_code != qm_code:
                    sys.exit(f"{arch}: linklab (softmmu) exited {sm_code}, qemu {qm_code}: the runs disagree")
                soft = f" {sm:10.3f} {sm / qm:6.2f}x"
            print(f"{arch:8} {ll:10.3f} {startup:10.3f} {qm:10.3f} {ratio:6.2f}x{soft}  {ll_code}")
            if ratio > TARGET:
                missed.append(arch)
    if missed:
        print(f"target {TARGET}x missed on: {', '.join(missed)}")
        if args.enforce:
            sys.exit(1)


if __name__ == "__main__":
    main()
