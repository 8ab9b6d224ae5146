#!/usr/bin/env python3
"""Emulation speed and start-up of linklab-executor against qemu-user, per
arch (x86-64, AArch64, RISC-V 64, i386, Arm), four figures:

1. CPU-bound: one freestanding C function (a sieve, a matrix multiply and a
   CRC loop) run by `linklab -runtime=none -entry=bench` against the same
   object statically linked with ld.lld-22 behind a tiny `_start` under
   qemu-user. The "startup" column is linklab on an empty `bench` (spawn,
   link, run nothing): the part of the linklab time that is not emulation.
2. libc-bound: a program spending its time in glibc (snprintf, malloc/free,
   qsort, strcmp/strlen/strchr/strtoul, printf) compiled once with clang-22,
   run by plain `linklab prog.o` (linked with Debian's static glibc, entered
   through crt1.o) against the same object linked `-static` by gcc-12 (the
   cross gcc-12 for AArch64/RISC-V/Arm, the host's for x86-64 and i386) under qemu-user
   (qemu-x86_64 on x86-64 too, so every row is the same comparison). Both
   must print the same output.
3. Start-up: `linklab hello.o` (hello world with glibc: spawn the executor,
   link the program with glibc, run it), whole command, beside the 50 ms
   the issue targets; qemu-user running the gcc-12 -static hello for
   reference; beside it the same run with the prepared runtime image cache
   off (LINKLAB_CACHE=off: glibc's members linked on every run; the
   benchmark's own cache is warmed before timing, docs/runtime-image.md).
   The CPU columns are the user and system time of all the command's
   processes (linklab and its executor; qemu-user's one), which a loaded
   machine inflates far less than wall time (waiting for a core at each
   hand-over between linklab and the executor).
   --instructions adds what wall times on a loaded machine
   cannot show: the instructions linklab's own process executes for it
   (callgrind's count; the executor it spawns runs natively, uncounted).
4. Real programs: Csmith's generated programs (fixed seeds) and a few
   compute kernels (n-body in doubles, a linked list, stores to a volatile
   global, integer hashing), each `linklab prog.o` against the same object
   linked by clang-22 -fuse-ld=lld -static under qemu-user, start-up
   included: per arch the median of the programs' ratios (target <= 1.0x),
   and of those qemu runs for at least 0.1 s (target <= 0.8x), and the
   slowest program (--verbose: every program).

Every time is a whole-command wall time, median of N runs, the commands of
a row taking turns; a ratio is linklab/qemu (target <= 1.0x). Both runs of
a workload must exit alike.

Unicorn 2.0.x (Debian bookworm's) sends every guest store through QEMU's
not-dirty slow path and never grows its TLB (AArch64's 1 KiB pages then
thrash it); emulator/unicorn_quirks.cpp removes the per-store allocation,
lets stores to never-executable writable pages take the inline fast path
again (unicorn #1970), lets QEMU grow the TLB, and drops the per-access
stop checks in unbudgeted runs; the wall-time limit is the executor's own
watchdog rather than Unicorn's polling timeout thread (see its comments).
emulator/direct_memory.cpp then takes QEMU's software TLB out of guest
loads and stores, as qemu-user has none: --softmmu adds a column to the
CPU-bound table with that turned off (LINKLAB_EXECUTOR_SOFTMMU=1) to show
what it is worth. On x86-64, emulator/x86_helpers.cpp translates SSE2
integer instructions inline (QEMU 5.0 calls a helper for each) and divides
128-bit dividends on the host (LINKLAB_EXECUTOR_X86_HELPERS=1 keeps
Unicorn's helpers).

usage: scripts/bench-exec.py [--linklab PATH] [--baseline PATH] [--startup-only] [--only cpu|libc|startup|real ...]
                             [--runs N] [--scale N] [--libc-scale N] [--arch A ...] [--softmmu] [--verbose]
                             [--instructions] [--enforce]
"""
import argparse, os, re, resource, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = 1.0        # linklab/qemu, both workloads
STARTUP_TARGET = 0.050  # seconds, `linklab hello.o`
REAL_TARGET, REAL_LONG_TARGET = 1.0, 0.8  # real programs: median ratio, and for programs qemu runs >= LONG_RUN s
LONG_RUN = 0.1
SECTIONS = ["cpu", "libc", "startup", "real"]

# arch -> clang target flags, qemu binary, the gcc-12 driver (and its
# flags) that links -static against the arch's glibc, _start of the
# CPU-bound run (calls bench, exits with its result through the raw Linux
# exit_group syscall).
ARCHES = {
    "x86_64": (["--target=x86_64-linux-gnu"], "qemu-x86_64", ["gcc-12"],
               "call bench\n mov %eax, %edi\n mov $231, %eax\n syscall\n"),
    "aarch64": (["--target=aarch64-linux-gnu"], "qemu-aarch64", ["aarch64-linux-gnu-gcc-12"],
                "bl bench\n mov x8, #94\n svc #0\n"),
    "riscv64": (["--target=riscv64-linux-gnu", "-march=rv64gc"], "qemu-riscv64", ["riscv64-linux-gnu-gcc-12"],
                "call bench\n li a7, 94\n ecall\n"),
    "i386": (["--target=i386-linux-gnu", "-idirafter", "/usr/include/x86_64-linux-gnu"], "qemu-i386",
             ["gcc-12", "-m32"], "call bench\n mov %eax, %ebx\n mov $252, %eax\n int $0x80\n"),
    "arm": (["--target=armv7a-linux-gnueabihf"], "qemu-arm", ["arm-linux-gnueabihf-gcc-12"],
            "bl bench\n mov r7, #248\n svc #0\n"),
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


LIBC_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCALE %(scale)d
enum { N = 20000 };

static int byText(const void *A, const void *B) { return strcmp(*(char *const *)A, *(char *const *)B); }

int main(void) {
  unsigned long Sum = 0;
  char Buf[128];
  for (int R = 0; R < SCALE; ++R) {
    char **Strs = malloc(N * sizeof *Strs);
    for (int I = 0; I < N; ++I) {
      int Len = snprintf(Buf, sizeof Buf, "%%d:%%x:%%.3f:%%s", I * 7919 %% 10007, I ^ R, I / 7.0, I & 1 ? "odd" : "even");
      Strs[I] = malloc(Len + 1 + I %% 64);
      memcpy(Strs[I], Buf, Len + 1);
    }
    qsort(Strs, N, sizeof *Strs, byText);
    for (int I = 0; I < N; ++I) {
      Sum = Sum * 31 + strlen(Strs[I]) + (strchr(Strs[I], ':') - Strs[I]) + strtoul(Strs[I], 0, 10);
      if (I && strcmp(Strs[I - 1], Strs[I]) > 0)
        Sum ^= 1;
    }
    for (int I = 0; I < N; ++I)
      free(Strs[I]);
    free(Strs);
    printf("round %%d: %%lu %%g\n", R, Sum, Sum / 3.0);
  }
  return 0;
}
"""

# 4. Real programs: Csmith's generated programs (fixed seeds, csmith 2.3.0
# as Debian ships it) and a few compute kernels, each a whole program with
# glibc, start-up included: `linklab prog.o` against the same object linked
# by `clang-22 -fuse-ld=lld -static` under qemu-user.
CSMITH_SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
KERNELS = {
    # double-precision n-body steps: floating point (x87 on i386, VFP on Arm)
    "nbody": r"""
#include <math.h>
#include <stdio.h>
enum { N = 5 };
static double P[N][3], V[N][3], M[N];
int main(void) {
  for (int I = 0; I < N; ++I) {
    M[I] = 1.0 + I;
    for (int K = 0; K < 3; ++K) P[I][K] = I * 1.5 + K * 0.25, V[I][K] = (I - K) * 0.01;
  }
  for (int Step = 0; Step < 100000; ++Step)
    for (int I = 0; I < N; ++I)
      for (int J = I + 1; J < N; ++J) {
        double D[3], D2 = 1e-9;
        for (int K = 0; K < 3; ++K) D[K] = P[I][K] - P[J][K], D2 += D[K] * D[K];
        double Mag = 0.001 / (D2 * sqrt(D2));
        for (int K = 0; K < 3; ++K) {
          V[I][K] -= D[K] * M[J] * Mag, V[J][K] += D[K] * M[I] * Mag;
          P[I][K] += 0.001 * V[I][K], P[J][K] += 0.001 * V[J][K];
        }
      }
  printf("%.9f %.9f\n", P[0][0], V[N - 1][2]);
  return 0;
}
""",
    # a linked list walked and rebuilt: pointer chasing, malloc/free
    "lists": r"""
#include <stdio.h>
#include <stdlib.h>
struct Node { struct Node *Next; unsigned Value; };
int main(void) {
  struct Node *Head = 0;
  unsigned long Sum = 0;
  for (unsigned I = 0; I < 20000; ++I) {
    struct Node *N = malloc(sizeof *N);
    N->Value = I * 2654435761u, N->Next = Head, Head = N;
  }
  for (int Round = 0; Round < 1000; ++Round) {
    struct Node *Prev = 0;
    for (struct Node *N = Head; N;) {
      struct Node *Next = N->Next;
      Sum += N->Value ^ (unsigned)Round, N->Value += Round, N->Next = Prev, Prev = N, N = Next;
    }
    Head = Prev;
  }
  while (Head) {
    struct Node *Next = Head->Next;
    free(Head), Head = Next;
  }
  printf("%lu\n", Sum);
  return 0;
}
""",
    # stores to a volatile global: the store path alone
    "stores": r"""
#include <stdio.h>
volatile unsigned Sink;
int main(void) {
  for (unsigned I = 0; I < 100000000; ++I) Sink = I;
  printf("%u\n", Sink);
  return 0;
}
""",
    # integer hashing over a buffer: loads, shifts, multiplies
    "hash": r"""
#include <stdint.h>
#include <stdio.h>
static uint8_t Buf[1 << 16];
int main(void) {
  uint32_t H = 2166136261u;
  for (unsigned I = 0; I < sizeof Buf; ++I) Buf[I] = (uint8_t)(I * 31 + (I >> 8));
  for (int Round = 0; Round < 300; ++Round)
    for (unsigned I = 0; I < sizeof Buf; ++I) H = (H ^ Buf[I]) * 16777619u, H ^= H >> 13;
  printf("%08x\n", H);
  return 0;
}
""",
}

HELLO_C = '#include <stdio.h>\nint main(void) { printf("hello, world\\n"); return 0; }\n'


def run(cmd, cwd, env=None):
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def build(cmds, cwd):
    for cmd in cmds:
        proc = run(cmd, cwd)
        if proc.returncode:
            sys.exit(f"{' '.join(cmd)}: {proc.stderr}")


def timed(cmds, cwd, runs, env=None):
    """Per command of cmds: the median wall time of `runs` runs, its exit code and
    stdout (the same in every run), and the median CPU time (user and system) of
    the command and every process it waited for (linklab's executor too). The
    commands take turns, one run each per round, so that a machine getting
    slower or faster during the benchmark (a VM's neighbours) moves every
    command's times alike rather than one's. CPU time moves less with the
    machine's load than wall time, which on a busy machine is mostly waiting
    for a core at each hand-over between linklab and its executor."""
    times = [[] for _ in cmds]
    cpus = [[] for _ in cmds]
    results = [set() for _ in cmds]
    for _ in range(runs):
        for i, (cmd, cmd_env) in enumerate(cmds):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            proc = run(cmd, cwd, cmd_env or env)
            times[i].append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus[i].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            results[i].add((proc.returncode, proc.stdout))
            if proc.stderr.strip():
                sys.exit(f"{' '.join(cmd)}: {proc.stderr.strip()}")
    for (cmd, _), result in zip(cmds, results):
        if len(result) != 1:
            sys.exit(f"{' '.join(cmd)}: exit codes or output differ between runs")
    return [(statistics.median(t), *r.pop(), statistics.median(c)) for t, r, c in zip(times, results, cpus)]


def instructions(cmd, cwd, env=None):
    """The instructions cmd's own process executes (callgrind's Ir; children,
    such as the executor linklab spawns, run natively and are not counted)."""
    proc = run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd], cwd, env)
    m = re.search(r"Collected : (\d+)", proc.stderr)
    if proc.returncode or not m:
        sys.exit(f"callgrind {' '.join(cmd)}: exit {proc.returncode}: {proc.stderr.strip()[-500:]}")
    return int(m.group(1))


def same(arch, what, linklab, qemu):
    if linklab[1:3] != qemu[1:3]:
        sys.exit(f"{arch} {what}: linklab exited {linklab[1]}, qemu {qemu[1]}"
                 f"{'' if linklab[1] != qemu[1] else ' with different output'}: the runs disagree")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--linklab", default=os.path.join(ROOT, "build", "core", "linklab"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--scale", type=int, default=6, help="outer iterations of the CPU-bound workload")
    ap.add_argument("--libc-scale", type=int, default=4, help="outer iterations of the libc workload")
    ap.add_argument("--opt", default="-O2")
    ap.add_argument("--arch", action="append", choices=sorted(ARCHES), help="default: all")
    ap.add_argument("--softmmu", action="store_true", help="also time linklab with direct guest memory off")
    ap.add_argument("--startup-only", action="store_true", help="only the start-up table (as --only startup)")
    ap.add_argument("--only", action="append", choices=SECTIONS, help="the tables to make (default: all)")
    ap.add_argument("--baseline", help="another build's linklab, timed beside this one in the start-up table")
    ap.add_argument("--verbose", action="store_true", help="real programs: a line per program")
    ap.add_argument("--instructions", action="store_true",
                    help="start-up: also count linklab's own instructions (callgrind), of the baseline too")
    ap.add_argument("--enforce", action="store_true",
                    help=f"exit 1 if an arch misses {TARGET}x or the {STARTUP_TARGET * 1000:.0f} ms start-up")
    args = ap.parse_args()
    args.linklab = os.path.abspath(args.linklab)
    arches = args.arch or list(ARCHES)
    sections = set(args.only or (["startup"] if args.startup_only else SECTIONS))
    missed = []
    with tempfile.TemporaryDirectory(prefix="bench-exec-") as tmp:
        # The benchmark's own prepared runtime images (warmed by each
        # program's first run), not the user's cache.
        os.environ["LINKLAB_CACHE"] = os.path.join(tmp, "runtime-images")
        for name, text in (("bench.c", BENCH_C % {"scale": args.scale}), ("empty.c", "int bench(void) { return 0; }\n"),
                           ("libc.c", LIBC_C % {"scale": args.libc_scale}), ("hello.c", HELLO_C)):
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
        for arch in arches:
            flags, _, gcc, start = ARCHES[arch]
            with open(os.path.join(tmp, f"start-{arch}.s"), "w") as f:
                f.write(f".globl _start\n_start:\n {start}")
            cc = ["clang-22", *flags, args.opt, "-c"]
            free = cc + ["-ffreestanding", "-fno-stack-protector"]
            build([free + ["bench.c", "-o", f"bench-{arch}.o"], free + ["empty.c", "-o", f"empty-{arch}.o"],
                   ["clang-22", *flags, "-c", f"start-{arch}.s", "-o", f"start-{arch}.o"],
                   ["ld.lld-22", "-static", "-o", f"bench-{arch}", f"start-{arch}.o", f"bench-{arch}.o"],
                   cc + ["libc.c", "-o", f"libc-{arch}.o"], [*gcc, "-static", f"libc-{arch}.o", "-o", f"libc-{arch}"],
                   cc + ["hello.c", "-o", f"hello-{arch}.o"], [*gcc, "-static", f"hello-{arch}.o", "-o", f"hello-{arch}"]],
                  tmp)
        if "cpu" in sections:
            cpu_bound(args, arches, tmp, missed)
        if "libc" in sections:
            libc_bound(args, arches, tmp, missed)
        if "startup" in sections:
            start_up(args, arches, tmp, missed)
        if "real" in sections:
            real_programs(args, arches, tmp, missed)
    if missed:
        print(f"targets missed: {', '.join(missed)}")
        if args.enforce:
            sys.exit(1)


def cpu_bound(args, arches, tmp, missed):
    print(f"1. CPU-bound: sieve(1M) + matmul(64) + crc32(256K) x {args.scale}, {args.opt}; "
          f"linklab `-runtime=none -entry=bench` (no C runtime) vs ld.lld-22 -static under qemu-user; "
          f"median of {args.runs}")
    soft = f" {'softmmu s':>10} {'ratio':>7}" if args.softmmu else ""
    print(f"{'arch':8} {'linklab s':>10} {'startup s':>10} {'qemu s':>10} {'ratio':>7}{soft}  exit")
    for arch in arches:
        qemu = ARCHES[arch][1]
        obj = f"bench-{arch}.o"
        cmds = [([args.linklab, "-runtime=none", "-entry=bench", obj], None),
                ([args.linklab, "-runtime=none", "-entry=bench", f"empty-{arch}.o"], None),
                ([qemu, f"bench-{arch}"], None)]
        if args.softmmu:
            cmds.append((cmds[0][0], dict(os.environ, LINKLAB_EXECUTOR_SOFTMMU="1")))
        ll, (startup, *_), qm, *sm = timed(cmds, tmp, args.runs)
        same(arch, "CPU-bound", ll, qm)
        soft = ""
        if sm:
            same(arch, "CPU-bound (softmmu)", sm[0], qm)
            soft = f" {sm[0][0]:10.3f} {sm[0][0] / qm[0]:6.2f}x"
        print(f"{arch:8} {ll[0]:10.3f} {startup:10.3f} {qm[0]:10.3f} {ll[0] / qm[0]:6.2f}x{soft}  {ll[1]}")
        if ll[0] / qm[0] > TARGET:
            missed.append(f"{arch} CPU-bound")


def libc_bound(args, arches, tmp, missed):
    print(f"\n2. libc-bound: snprintf/malloc/qsort/string functions x {args.libc_scale}, {args.opt}; "
          f"linklab `prog.o` (glibc) vs the same object linked by gcc-12 -static under qemu-user")
    print(f"{'arch':8} {'linklab s':>10} {'qemu s':>10} {'ratio':>7}  exit")
    for arch in arches:
        ll, qm = timed([([args.linklab, f"libc-{arch}.o"], None), ([ARCHES[arch][1], f"libc-{arch}"], None)],
                       tmp, args.runs)
        same(arch, "libc-bound", ll, qm)
        print(f"{arch:8} {ll[0]:10.3f} {qm[0]:10.3f} {ll[0] / qm[0]:6.2f}x  {ll[1]}")
        if ll[0] / qm[0] > TARGET:
            missed.append(f"{arch} libc-bound")


def start_up(args, arches, tmp, missed):
    print(f"\n3. start-up: hello world with glibc, `linklab hello.o` (spawn the executor, link with glibc, run)")
    off = dict(os.environ, LINKLAB_CACHE="off")
    base = f" {'baseline ms':>12} {'CPU':>6}" if args.baseline else ""
    if args.instructions:
        base += f" {'linklab Minstr':>15} {'no cache Minstr':>16}" + (f" {'baseline Minstr':>16}" if args.baseline else "")
    # CPU: user and system time of both processes (linklab and its executor),
    # qemu-user's of its one.
    print(f"{'arch':8} {'linklab ms':>11} {'CPU':>6} {'no cache ms':>12}{base} {'target ms':>10} {'qemu ms':>8} "
          f"{'CPU':>6}")
    for arch in arches:
        run([args.linklab, f"hello-{arch}.o"], tmp)  # builds the image the timed runs use
        cmds = [([args.linklab, f"hello-{arch}.o"], None), ([ARCHES[arch][1], f"hello-{arch}"], None),
                ([args.linklab, f"hello-{arch}.o"], off)]
        if args.baseline:
            run([os.path.abspath(args.baseline), f"hello-{arch}.o"], tmp)  # and the baseline's image
            cmds.append(([os.path.abspath(args.baseline), f"hello-{arch}.o"], None))
        ll, qm, nc, *bl = timed(cmds, tmp, args.runs)
        same(arch, "hello", ll, qm)
        same(arch, "hello (no cache)", nc, qm)
        base = ""
        if bl:
            same(arch, "hello (baseline)", bl[0], qm)
            base = f" {bl[0][0] * 1000:12.1f} {bl[0][3] * 1000:6.1f}"
        if args.instructions:
            base += f" {instructions([args.linklab, f'hello-{arch}.o'], tmp) / 1e6:15.1f}"
            base += f" {instructions([args.linklab, f'hello-{arch}.o'], tmp, off) / 1e6:16.1f}"
            if args.baseline:
                base += f" {instructions([os.path.abspath(args.baseline), f'hello-{arch}.o'], tmp) / 1e6:16.1f}"
        print(f"{arch:8} {ll[0] * 1000:11.1f} {ll[3] * 1000:6.1f} {nc[0] * 1000:12.1f}{base} "
              f"{STARTUP_TARGET * 1000:10.0f} {qm[0] * 1000:8.1f} {qm[3] * 1000:6.1f}")
        if ll[0] > STARTUP_TARGET:
            missed.append(f"{arch} start-up")


def real_programs(args, arches, tmp, missed):
    """Csmith's programs and the kernels, per arch: each program's median
    ratio, then the median over programs (all of them, and those qemu-user
    runs for at least LONG_RUN s)."""
    print(f"\n4. real programs: {len(CSMITH_SEEDS)} Csmith programs (seeds {CSMITH_SEEDS[0]}-{CSMITH_SEEDS[-1]}) and "
          f"{len(KERNELS)} kernels ({', '.join(KERNELS)}), {args.opt}; `linklab prog.o` vs the same object "
          f"linked by clang-22 -fuse-ld=lld -static under qemu-user, start-up included; median of {args.runs}")
    sources = {}
    for seed in CSMITH_SEEDS:
        build([["csmith", "--seed", str(seed), "-o", f"csmith-{seed}.c"]], tmp)
        sources[f"csmith-{seed}"] = f"csmith-{seed}.c"
    for name, text in KERNELS.items():
        with open(os.path.join(tmp, f"kernel-{name}.c"), "w") as f:
            f.write(text)
        sources[name] = f"kernel-{name}.c"
    print(f"{'arch':8} {'programs':>8} {'median':>7} {'target':>7} {f'qemu>={LONG_RUN}s':>10} {'median':>7} "
          f"{'target':>7}  slowest")
    for arch in arches:
        flags, qemu = ARCHES[arch][0], ARCHES[arch][1]
        ratios, long_ratios = {}, []
        for name, src in sources.items():
            obj, exe = f"real-{name}-{arch}.o", f"real-{name}-{arch}"
            build([["clang-22", *flags, args.opt, "-w", "-Wno-error=incompatible-pointer-types", "-I", "/usr/include/csmith", "-c", src, "-o", obj],
                   ["clang-22", *flags, "-fuse-ld=lld", "-static", obj, "-o", exe, "-lm"]], tmp)
            run([args.linklab, obj], tmp)  # builds the image the timed runs use
            ll, qm = timed([([args.linklab, obj], None), ([qemu, exe], None)], tmp, args.runs)
            same(arch, name, ll, qm)
            ratios[name] = ll[0] / qm[0]
            if qm[0] >= LONG_RUN:
                long_ratios.append(ratios[name])
            if args.verbose:
                print(f"  {arch} {name}: linklab {ll[0]:.3f} s, qemu {qm[0]:.3f} s, {ratios[name]:.2f}x")
        median = statistics.median(ratios.values())
        long_median = statistics.median(long_ratios) if long_ratios else None
        slowest = max(ratios, key=ratios.get)
        long_text = f"{long_median:6.2f}x" if long_ratios else f"{'-':>7}"
        print(f"{arch:8} {len(ratios):8} {median:6.2f}x {REAL_TARGET:6.1f}x {len(long_ratios):10} {long_text} "
              f"{REAL_LONG_TARGET:6.1f}x  {slowest} {ratios[slowest]:.2f}x")
        if median > REAL_TARGET:
            missed.append(f"{arch} real programs")
        if long_ratios and long_median > REAL_LONG_TARGET:
            missed.append(f"{arch} real programs >= {LONG_RUN} s")


if __name__ == "__main__":
    main()
