#!/usr/bin/env python3
"""gdb-multiarch debugging a program linked and run by `linklab -gdb`, on
each architecture the executor runs: tests/inputs/debug/{main,calls}.c
compiled with -g, linked with -debug-script, and a gdb batch session
that (at -O0) breaks on a function in the second object, continues, prints
a backtrace through two frames, a global and locals, steps instruction by
instruction through the call (the linker's stub or PLT entry, if it made
one) into the callee, watches a global, and continues to the exit status;
a second session sees the program's null write reported as SIGSEGV at its
line (and once with the second object in an archive, whose member
-debug-script extracts; and a program stopped in its second thread); at -O2, a session asks what survives optimization (arguments,
frames, a global, `finish`'s return value, a watchpoint); in extended mode
`run`, `start` and `kill` start the program again, and ^C and `detach`
work as on a process. What gdb prints
is matched line by line; on x86-64 the same patterns
(those that do not need a hardware watchpoint, which this machine's
virtual CPU may not offer to native processes) must also match gdb's
session of the same sources built natively, so the expectations are what
gdb shows for a real process.

usage: gdb_test.py LINKLAB SOURCE_DIR WORK_DIR [ARCH...]
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time

LINKLAB, SRC, WORK = sys.argv[1:4]
ARCHES = sys.argv[4:] or ["x86_64", "aarch64", "riscv64", "i386", "arm"]
FLAGS = {
    "x86_64": "--target=x86_64-linux-gnu",
    "aarch64": "--target=aarch64-linux-gnu",
    # gdb reads each object's DWARF as the object lays its code out, so the
    # linker must not shrink it: RISC-V linker relaxation would.
    "riscv64": "--target=riscv64-linux-gnu -march=rv64gc -mabi=lp64d -mno-relax",
    "i386": "--target=i386-linux-gnu -idirafter /usr/include/x86_64-linux-gnu",
    "arm": "--target=armv7a-linux-gnueabihf",
}
STUB_ARCHES = {"aarch64", "riscv64"}  # where this link calls scale through a stub
TIMEOUT = 300  # seconds for one gdb session: generous, the machine is shared
MAIN = os.path.join(SRC, "tests/inputs/debug/main.c")
CALLS = os.path.join(SRC, "tests/inputs/debug/calls.c")
THREADS_SRC = os.path.join(SRC, "tests/inputs/debug/threads.c")
CALLBACK_SRC = os.path.join(SRC, "tests/inputs/debug/callback.c")
STDIN_SRC = os.path.join(SRC, "tests/inputs/parity/stdin.c")

# `info registers` at scale's breakpoint, per arch (native: x86_64's).
HEX = r"0x[0-9a-f]+"
REGISTERS = {
    "x86_64": [rf"^rax\s+{HEX}\s+-?\d+$", rf"^r15\s+{HEX}\s", rf"^rip\s+{HEX}\s+{HEX} <scale\+\d+>$",
               rf"^eflags\s+{HEX}\s+\[ (.* )?IF( .*)? \]$", r"^cs\s+0x33\s+51$", r"^gs\s+0x0\s+0$"],
    "i386": [rf"^eax\s+{HEX}\s", rf"^eip\s+{HEX}\s+{HEX} <scale\+\d+>$", rf"^eflags\s+{HEX}\s+\[ (.* )?IF( .*)? \]$",
             r"^cs\s+0x23\s+35$", rf"^gs\s+{HEX}\s"],
    "aarch64": [r"^x0\s+0x5\s+5$", rf"^x30\s+{HEX}\s", rf"^sp\s+{HEX}\s", rf"^pc\s+{HEX}\s+{HEX} <scale\+\d+>$",
                rf"^cpsr\s+{HEX}\s+\[ EL=0 .*\]$", rf"^fpsr\s+{HEX}\s+\[ .*\]$", rf"^fpcr\s+{HEX}\s+\[ .*\]$",
                rf"^tpidr\s+{HEX}\s+{HEX}$"],
    "riscv64": [rf"^ra\s+{HEX}\s+{HEX} <main\+\d+>$", rf"^sp\s+{HEX}\s", r"^a0\s+0x5\s+5$", rf"^t6\s+{HEX}\s",
                rf"^pc\s+{HEX}\s+{HEX} <scale\+\d+>$"],
    "arm": [r"^r0\s+0x5\s+5$", rf"^sp\s+{HEX}\s", rf"^lr\s+{HEX}\s", rf"^pc\s+{HEX}\s+{HEX} <scale\+\d+>$",
            rf"^cpsr\s+{HEX}\s+-?\d+$", rf"^fpscr\s+{HEX}\s", rf"^tpidruro\s+{HEX}\s+{HEX}$"],
}

# The session: each command, then the patterns (regexes) its output must
# contain in order. Native: whether a native process under gdb shows them
# too (True), or not (False); None: a command not sent to a native process
# (read and access watchpoints, which this machine's virtual CPU may not
# offer it, and gdb cannot make in software).
SESSION = [
    # Stopped at the entry, gdb names it from the linked image's symbols.
    ("break scale", [r"^0x[0-9a-f]+ in _start \(\)$"], False),
    ("@start", [r"^Breakpoint 1, scale \(x=5, by=0\) at .*calls\.c:5$"], True),
    # The backtrace ends at main, as gdb's does for a process.
    ("bt", [r"^#0  scale \(x=5, by=0\) at .*calls\.c:5$",
            r"^#1  0x[0-9a-f]+ in main \(argc=1, argv=0x[0-9a-f]+\) at .*main\.c:17$", r"!^#2 "], True),
    # The registers as gdb shows a Linux process's (flags decoded, the
    # thread pointer where gdb's Linux target has it), each arch's own.
    ("info registers", REGISTERS, True),
    ("x/4i $pc", [r"^=> 0x[0-9a-f]+ <scale\+\d+>:\s"] + [r"^   0x[0-9a-f]+ <scale\+\d+>:\s"] * 3, True),
    ("info frame", [r"^Stack level 0, frame at 0x[0-9a-f]+:$",
                    r"^ (rip|eip|pc) = 0x[0-9a-f]+ in scale \(.*calls\.c:5\); saved (rip|eip|pc) = 0x[0-9a-f]+$",
                    r"^ called by frame at 0x[0-9a-f]+$", r"^ Arglist at 0x[0-9a-f]+, args: x=5, by=0$"], True),
    ("x/dw &total", [r"^0x[0-9a-f]+ <total>:\s+7$"], True),
    ("print total", [r"^\$1 = 7$"], True),
    ("next", [r"^6\t  counter = counter \+ 1;$"], True),
    ("print product", [r"^\$2 = 0$"], True),
    ("up", [r"^#1  0x[0-9a-f]+ in main \(argc=1, "], True),
    ("print local", [r"^\$3 = 5$"], True),
    ("watch counter", [r"^Hardware watchpoint 2: counter$"], True),
    # Where gdb expects a watchpoint to stop (before the store on AArch64,
    # Arm and RISC-V, after it on x86), the stop is at the next line.
    ("continue", [r"^Old value = 0$", r"^New value = 1$", r"^scale \(x=5, by=0\) at .*calls\.c:7$"], False),
    ("rwatch total", [r"^Hardware read watchpoint 3: total$"], None),
    ("continue", [r"^Hardware read watchpoint 3: total$", r"^Value = 7$",
                  r"^(0x[0-9a-f]+ in )?main \(argc=1, argv=0x[0-9a-f]+\) at .*main\.c:17$"], None),
    ("delete", [], True),
    ("tbreak main.c:17", [], True),
    ("continue", [r"^Temporary breakpoint 4, main \(argc=1, argv=0x[0-9a-f]+\) at .*main\.c:17$"], False),
    # stepi until the callee's first instruction, through whatever the
    # linker put between (a stub, a PLT entry), at most 40 instructions.
    ("set $n = 0\nwhile $pc != &scale && $n < 40\n  stepi\n  set $n = $n + 1\nend", [], True),
    ("print $pc == &scale", [r"^\$4 = 1$"], True),
    ("info symbol $pc", [r"^scale in section \.text"], False),
    # `step` at the call goes through the stub into the callee, as through
    # a PLT entry.
    ("tbreak main.c:17", [], True),
    ("continue", [r"^Temporary breakpoint 5, main \(argc=1, argv=0x[0-9a-f]+\) at .*main\.c:17$"], False),
    ("step", [r"^scale \(x=5, by=2\) at .*calls\.c:5$"], False),
    ("delete", [], True),
    ("continue", [r"^\[Inferior 1 \(.*\) exited with code 03\]$"], True),
]
# At -O2 lines and locals move: the session asks what survives optimization
# (run with "fault": it stops at the null write, which gdb skips).
SESSION_O2 = [
    ("break scale", [], True),
    # AArch64: gdb shows a wrong entry value for `by` (and `p` below) beside
    # its right value, so an entry value may follow; it does so too for the
    # program linked statically by clang and run under qemu-aarch64 -g.
    ("@start", [r"^Breakpoint 1, scale \(x=(x@entry=)?5, by=(by@entry=)?0(, by@entry=-?\d+)?\) at .*calls\.c:\d+$"], True),
    ("bt", [r"^#0  (0x[0-9a-f]+ in )?scale \(x=(x@entry=)?5, by=(by@entry=)?0(, by@entry=-?\d+)?\) at .*calls\.c:\d+$",
            r"^#1  0x[0-9a-f]+ in main \(.*\) at .*main\.c:17$", r"!^#2 "], True),
    ("print total", [r"^\$1 = 7$"], True),
    ("finish", [r"^Value returned is \$2 = 1$"], True),
    ("print counter", [r"^\$3 = 1$"], True),
    ("print local", [r"^\$4 = 5$"], True),
    ("delete 1", [], True),
    # stepi from main into the second call's callee, through the stub
    # where the link made one.
    ("set $n = 0\nwhile $pc != &scale && $n < 60\n  stepi\n  set $n = $n + 1\nend", [], True),
    ("print $pc == &scale", [r"^\$5 = 1$"], True),
    ("watch counter", [r"^Hardware watchpoint 2: counter$"], None),
    ("continue", [r"^Old value = 1$", r"^New value = 2$"], None),
    ("delete", [], True),
    ("awatch counter", [r"^Hardware access \(read/write\) watchpoint 3: counter$"], None),
    ("continue", [r"^Hardware access \(read/write\) watchpoint 3: counter$", r"^Value = 2$"], None),
    ("delete", [], None),
    # The null write, at its line at -O2 too.
    ("continue", [r"^Program received signal SIGSEGV, Segmentation fault\.$",
                  r"^(0x[0-9a-f]+ in )?poke \(p=(p@entry=)?0x0(, p@entry=0x[0-9a-f]+)?\) at .*calls\.c:11$"], True),
    ("bt", [r"^#0  (0x[0-9a-f]+ in )?poke \(p=(p@entry=)?0x0(, p@entry=0x[0-9a-f]+)?\) at .*calls\.c:11$",
            r"^#1  0x[0-9a-f]+ in main \(.*\) at .*main\.c:20$", r"!^#2 "], True),
    # Back in main without the store, on without the signal: the program
    # ends with its exit status.
    ("return", [], True),
    ("frame", [r"^#0  (0x[0-9a-f]+ in )?main \(.*\) at .*main\.c:2[01]$"], True),
    ("signal 0", [r"^\[Inferior 1 \(.*\) exited with code 03\]$"], True),
]
# The wall-time limit does not count the time gdb holds the program: held
# 3.5 s at a breakpoint under a 3 s limit (past it whatever the run takes),
# it still runs to its end.
HELD = [
    ("break scale", [], True),
    ("@start", [r"^Breakpoint 1, scale "], True),
    ("shell sleep 3.5", [], True),
    ("delete", [], True),
    ("continue", [r"^\[Inferior 1 \(.*\) exited with code 03\]$"], True),
]
# A breakpoint in a second thread: gdb is told of it, lists both (as
# process.thread, as gdbserver names a Linux process's threads), and reads
# each one's registers (the waiting main thread's from its saved context).
THREADS = [
    ("break worker", [], True),
    ("@start", [r"^\[New Thread 1000\.1001\]$",
                r"^Thread 2 hit Breakpoint 1, worker \(arg=0x[0-9a-f]+\) at .*threads\.c:9$"], False),
    ("info threads", [r"^  1    Thread 1000\.1000 +0x[0-9a-f]+ in ",
                      r"^\* 2    Thread 1000\.1001 +worker \(arg=0x[0-9a-f]+\) at "], False),
    ("thread 1", [r"^\[Switching to thread 1 \(Thread 1000\.1000\)\]$"], False),
    ("thread 2", [r"^\[Switching to thread 2 \(Thread 1000\.1001\)\]$"], False),
    ("print *(int *)arg", [r"^\$1 = 42$"], True),
    ("delete", [], True),
    ("continue", [r"^\[Inferior 1 \(.*\) exited normally\]$"], True),
]
# A breakpoint in a function the C runtime calls (qsort's comparison): the
# backtrace names the runtime's functions (local ones too) and unwinds
# through them to main, from the linked image's symbols and call-frame
# information.
CALLBACK = [
    ("break order", [], True),
    ("@start", [r"^Breakpoint 1, order \(a=0x[0-9a-f]+, b=0x[0-9a-f]+\) at .*callback\.c:7$"], True),
    ("bt", [r"^#1  0x[0-9a-f]+ in msort_with_tmp\.part(\.0)? \(\)$", r"^#\d  0x[0-9a-f]+ in qsort_r \(\)$",
            r"^#\d  0x[0-9a-f]+ in main \(\) at .*callback\.c:11$", r"!^#"], True),
    ("delete", [], True),
    ("continue", [r"^\[Inferior 1 \(.*\) exited normally\]$"], True),
]
# Attached as linklab says (extended mode), `run` starts the program as
# natively: gdb kills the process it found stopped at its entry and runs
# one; the stub gives it that same untouched process. Once the program has
# run, `start`, `run` and `kill` then `run` start it again from the
# beginning (the executor builds the process again from the requests that
# built it: `total` as initialized, not as the last run left it).
RUN = [
    ("break main", [], True),
    ("@start", [r"^Breakpoint 1, main \(argc=1, argv=0x[0-9a-f]+\) at .*main\.c:15$"], True),
    ("info auxv", [r"^9 +AT_ENTRY +Entry point of program +0x[0-9a-f]+$", r"^0 +AT_NULL +End of vector +0x0$"], True),
    # Calls from gdb: on x86 the callee returns to a breakpoint on the
    # stack, which is not executable: the fault is gdb's stop, and the
    # process goes on without it (twice: the first call's fault must not end it).
    ("print scale(2, 3)", [r"^\$1 = 7$"], True),
    ("print scale(1, 1)", [r"^\$2 = 3$"], True),
    ("next", [r"^16\t  for \(int i = 0; i < 3; \+\+i\)$"], True),
    # `until` does not go back: from the loop's increment (after its body
    # in the code) it runs the loop out.
    ("until", [r"^17\t    total \+= scale\(local, i\);$"], True),
    ("until", [r"^16\t  for \(int i = 0; i < 3; \+\+i\)$"], True),
    ("until", [r"^18\t  printf\(\"total %d counter %d\\n\", total, counter\);$"], True),
    ("print total", [r"^\$3 = 34$"], True),
    ("delete", [], True),
    ("continue", [r"^\[Inferior 1 \(.*\) exited with code 03\]$"], True),
    ("info threads", [r"^No threads\.$"], True),
    ("start", [r"^Temporary breakpoint 2, main \(argc=1, argv=0x[0-9a-f]+\) at .*main\.c:15$"], True),
    ("print total", [r"^\$4 = 7$"], True),
    ("break scale", [], True),
    ("continue", [r"^Breakpoint 3, scale \(x=5, by=0\) at .*calls\.c:5$"], True),
    ("run", [r"^Breakpoint 3, scale \(x=5, by=0\) at .*calls\.c:5$"], True),
    ("print counter", [r"^\$5 = 0$"], True),
    ("kill", [r"^\[Inferior 1 \(.*\) killed\]$"], True),
    ("run", [r"^Breakpoint 3, scale \(x=5, by=0\) at .*calls\.c:5$"], True),
    ("delete", [], True),
    ("continue", [r"^\[Inferior 1 \(.*\) exited with code 03\]$"], True),
]
# ^C while the program runs (gdb's `interrupt`, the remote protocol's
# \x03): a loop of two billion calls stops with SIGINT, as natively; set
# back to its start, the program then runs on without gdb (`detach`) to its
# normal end. gdb reads these commands as they come (interactive_gdb): it
# runs the program in the background, is told to interrupt it once its log
# shows the continue sent, and goes on once it shows the stop.
INTERRUPT = [
    ("break main.c:17", [], None),
    ("@start", [r"^Breakpoint 1, main \(argc=1, argv=0x[0-9a-f]+\) at .*main\.c:17$"], None),
    ("set var i = -2000000000", [], None),
    ("delete", [], None),
    ("set debug remote 1", [], None),
    ("continue &", [], None),
    ("interrupt", [r"^Program received signal SIGINT, Interrupt\.$"], None),
    ("set debug remote 0", [], None),
    ("tbreak main.c:17", [], None),
    ("continue", [r"^Temporary breakpoint 2, main "], None),
    ("print i > -2000000000", [r"^\$1 = 1$"], None),
    ("set var i = 0", [], None),
    ("set var total = 7", [], None),
    ("set var counter = 0", [], None),
    ("detach", [r"^\[Inferior 1 \(.*\) detached\]$"], None),
]
# ^C while the program waits in read(2) for stdin that has not come: it
# stops there (gdb shows read's frame and the callers down to main), and
# once given its input and continued, the read goes on and the program ends
# as natively with that input.
STDIN_INPUT = "x1\n2 3.5 w\nlast\n"
STDIN_INTERRUPT = [
    ("break read", [], None),
    ("@start", [r"^Breakpoint 1, 0x[0-9a-f]+ in (__libc_|__GI___libc_)?read \(\)$"], None),
    ("delete", [], None),
    ("set debug remote 1", [], None),
    ("continue &", [], None),
    ("interrupt", [r"^Program received signal SIGINT, Interrupt\.$",
                   r"^0x[0-9a-f]+ in (__libc_|__GI___libc_)?read \(\)$"], None),
    ("set debug remote 0", [], None),
    ("bt", [r"^#0  0x[0-9a-f]+ in (__libc_|__GI___libc_)?read \(\)$", r"^#\d+  0x[0-9a-f]+ in main \(\) at .*stdin\.c:12$"],
     None),
    ("continue", [r"^\[Inferior 1 \(.*\) exited normally\]$"], None),
]
FAULT = [
    ("@start", [r"^Program received signal SIGSEGV, Segmentation fault\.$",
                r"^(0x[0-9a-f]+ in )?poke \(p=0x0\) at .*calls\.c:11$",
                r"^11\t  \*p = 42; /\* the fault line \*/$"], True),
    ("bt", [r"^#0  (0x[0-9a-f]+ in )?poke \(p=0x0\) at .*calls\.c:11$",
            r"^#1  0x[0-9a-f]+ in main \(argc=2, argv=0x[0-9a-f]+\) at .*main\.c:20$", r"!^#2 "], True),
    # The fault's siginfo: SIGSEGV, SEGV_MAPERR, the address written.
    ("print $_siginfo.si_signo", [r"^\$1 = 11$"], True),
    ("print $_siginfo.si_code", [r"^\$2 = 1$"], True),
    ("print $_siginfo._sifields._sigfault.si_addr", [r"^\$3 = \(void \*\) 0x0$"], True),
    ("continue", [r"^Program terminated with signal SIGSEGV, Segmentation fault\.$"], True),
]


def run(cmd, **kw):
    return subprocess.run(cmd, shell=True, capture_output=True, text=True, **kw)


COMPILED = {}  # command -> its output file: each object and executable is built once per run


def compiled(cmd, name):
    """The file `cmd -o WORK/name` writes (once), or "error: ..." if it failed."""
    if cmd not in COMPILED:
        out = os.path.join(WORK, name)
        r = run(f"{cmd} -o {out}")
        COMPILED[cmd] = f"error: {r.stderr}" if r.returncode else out
    return COMPILED[cmd]


def script(session, start, native=False):
    lines = []
    for cmd, _, in_native in session:
        if not (native and in_native is None):
            lines.append(start if cmd == "@start" else cmd)
    return "\n".join(lines) + "\n"


def check(output, session, native_only, where, arch="x86_64"):
    lines = output.splitlines()
    at, failures = 0, []
    for cmd, patterns, native in session:
        if native_only and not native:
            continue
        for p in patterns[arch] if isinstance(patterns, dict) else patterns:
            if p.startswith("!"):  # the line after the last match must not match
                if at < len(lines) and re.search(p[1:], lines[at]):
                    failures.append(f"{where}: after '{cmd}', line '{lines[at]}' matches /{p[1:]}/")
                continue
            r = re.compile(p)
            while at < len(lines) and not r.search(lines[at]):
                at += 1
            if at == len(lines):
                failures.append(f"{where}: after '{cmd}', no line matches /{p}/")
                return failures
            at += 1
    return failures


def linked_session(arch, opt, session, args, options=(), name=None, archive=False, sources=(MAIN, CALLS),
                   stdout_expected="total 28 counter 3\n", code_expected=3, remote="remote", start="continue",
                   fault_ends=None, stdin=None):
    tag = f"{arch}{opt}-{name or ('fault' if args else 'run')}"
    objs = []
    for src in sources:
        obj = compiled(f"clang-22 -c -g {opt} {FLAGS[arch]} {src}", f"{arch}{opt}-{os.path.basename(src)[:-2]}.o")
        if obj.startswith("error: "):
            return [f"{tag}: compiling {src}: {obj}"]
        objs.append(obj)
    if archive:  # the second object as an archive member: the script extracts it
        lib = os.path.join(WORK, f"{tag}-calls.a")
        if os.path.exists(lib):
            os.remove(lib)
        r = run(f"llvm-ar-22 rcs {lib} {objs[1]}")
        if r.returncode:
            return [f"{tag}: llvm-ar: {r.stderr}"]
        objs[1] = lib
    gdbscript = os.path.join(WORK, tag + ".gdb")
    err_path = os.path.join(WORK, tag + ".linklab.stderr")
    with open(err_path, "w") as err, open(os.path.join(WORK, tag + ".linklab.stdout"), "w") as out:
        cmd = [LINKLAB, "-gdb", "-debug-script=" + gdbscript, *options] + objs + (["-args", "prog"] + args if args else [])
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL)
    try:
        # linklab prints the gdb command line once linked (bounded wait).
        deadline = time.monotonic() + TIMEOUT
        port = None
        while port is None and time.monotonic() < deadline and proc.poll() is None:
            m = re.search(r"target extended-remote (127\.0\.0\.1:\d+)", open(err_path).read())
            port = m and m.group(1)
            time.sleep(0.1)
        if not port:
            return [f"{tag}: linklab printed no gdb command line: {open(err_path).read()}"]
        cmds = os.path.join(WORK, tag + ".commands")
        open(cmds, "w").write(script(session, start))
        gdb = ["gdb-multiarch", "-q", "-batch", "-nx", "-x", gdbscript, "-ex", f"target {remote} {port}", "-x", cmds]
        if session in (INTERRUPT, STDIN_INTERRUPT):
            def give_input():
                proc.stdin.write(stdin.encode())
                proc.stdin.close()
            output = interactive_gdb(gdb, script(session, start).splitlines(), tag, give_input if stdin else None)
        else:
            r = run(shlex.join(gdb), timeout=TIMEOUT)
            output = r.stdout + r.stderr
        proc.wait(timeout=TIMEOUT)
        open(os.path.join(WORK, tag + ".gdb.out"), "w").write(output)
        failures = check(output, session, False, tag, arch)
        # Where this layout needs one (a branch's reach is ±128 MiB on
        # AArch64; RISC-V's `call` became a stub's jump), stepi went through
        # the linker's stub for scale, which the linked image names as gdb
        # names a PLT entry.
        if arch in STUB_ARCHES and session in (SESSION, SESSION_O2):
            if not re.search(r"^0x[0-9a-f]+ in scale@plt \(\)$", output, re.M):
                failures.append(f"{tag}: stepi did not pass through a stub between main and scale")
        stdout = open(os.path.join(WORK, tag + ".linklab.stdout")).read()
        # A fault loses what stdio still buffered (stdout is a pipe), as natively.
        fault_ends = bool(args) if fault_ends is None else fault_ends
        if stdout != ("" if fault_ends else stdout_expected):
            failures.append(f"{tag}: the program printed {stdout!r}")
        expected = 139 if fault_ends else code_expected  # a shell's status for SIGSEGV; the program's own
        if proc.returncode != expected:
            failures.append(f"{tag}: linklab exited {proc.returncode}, expected {expected}")
        return failures
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def interactive_gdb(cmd, lines, tag, stopped=None):
    """gdb's output (stdout, then stderr without its remote-protocol log),
    given the command lines one by one: after `continue &` it waits until
    gdb's log shows the continue sent, after `interrupt` until it shows the
    stop (then calls stopped())."""
    out_path = os.path.join(WORK, tag + ".gdb.stdout")
    cmd = [c for c in cmd[:-2] if c != "-batch"]  # commands from stdin (not -x), no prompt, no wrapping
    cmd[3:3] = ["-iex", "set width 0", "-iex", "set height 0", "-iex", "set prompt"]
    errors = []

    def await_log(what):
        for line in g.stderr:
            if "[remote]" not in line:
                errors.append(line)
            if what in line:
                return

    with open(out_path, "w") as out:
        g = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE, stdin=subprocess.PIPE, text=True)
        timer = threading.Timer(TIMEOUT, g.kill)  # bounds the reads below
        timer.start()
        try:
            for line in lines:
                g.stdin.write(line + "\n")
                g.stdin.flush()
                if line == "continue &":
                    await_log("Sending packet: $vCont;c")
                elif line == "interrupt":
                    await_log("Packet received: T02")
                    if stopped:
                        stopped()
            g.stdin.close()
        except BrokenPipeError:
            pass  # gdb ended early: its output says why
        await_log("\0")
        g.wait()
        timer.cancel()
    return open(out_path).read() + "".join(errors)


def native_session(session, args, opt="-O0", sources=(MAIN, CALLS)):
    exe = compiled(f"clang-22 -g {opt} -static {' '.join(sources)}",
                   "native" + opt + ("-" + os.path.basename(sources[0])[:-2] if len(sources) == 1 else ""))
    if exe.startswith("error: "):
        return [f"native: {exe}"]
    cmds = exe + ".commands"
    start = "run" + (" " + " ".join(args) if args else "")
    open(cmds, "w").write(script(session, start, native=True))
    r = run(f"gdb-multiarch -q -batch -nx -x {cmds} {exe}", timeout=TIMEOUT)
    if "ptrace" in r.stdout + r.stderr and "Operation not permitted" in r.stdout + r.stderr:
        print("native gdb cannot trace here (ptrace refused): native comparison not made")
        return []
    return check(r.stdout + r.stderr, session, True, "native" + opt + ("-fault" if args else ""))


def stdin_session(arch):
    """STDIN_INTERRUPT on tests/inputs/parity/stdin.c, whose output must be
    what the program prints natively for the same input."""
    exe = compiled(f"clang-22 -O0 -static {STDIN_SRC}", "native-stdin")
    if exe.startswith("error: "):
        return [f"native: {exe}"]
    native = subprocess.run([exe], input=STDIN_INPUT, capture_output=True, text=True, timeout=TIMEOUT)
    return linked_session(arch, "-O0", STDIN_INTERRUPT, [], [], "stdin", sources=(STDIN_SRC,),
                          stdout_expected=native.stdout, code_expected=0, stdin=STDIN_INPUT)


def cli_errors():
    """Bad -gdb uses end with an error naming the option, before any run."""
    failures = []
    obj = os.path.join(WORK, "x86_64-O0-main.o")
    for options, message in [(["-gdb=nonsense"], "option '-gdb': 'nonsense' is not IPv4:PORT"),
                             (["-gdb=127.0.0.1:99999"], "option '-gdb': '127.0.0.1:99999' is not IPv4:PORT"),
                             (["-noexec", "-gdb"], "option '-gdb' debugs a run: it cannot be used with -noexec"),
                             (["-gdb", "-oop-executor-connect=127.0.0.1:9"],
                              "option '-gdb' needs an executor this command starts (not -oop-executor-connect)")]:
        r = subprocess.run([LINKLAB, *options, obj], capture_output=True, text=True, timeout=TIMEOUT)
        if r.returncode != 1 or f"linklab error: {message}" not in r.stderr:
            failures.append(f"{options}: exit {r.returncode}, stderr {r.stderr!r}")
    return failures


def main():
    if not shutil.which("gdb-multiarch"):
        print("gdb-multiarch is not installed (scripts/install-deps.sh installs it)")
        return 1
    os.makedirs(WORK, exist_ok=True)
    failures = (native_session(SESSION, []) + native_session(FAULT, ["fault"]) + native_session(SESSION_O2, ["fault"], "-O2")
                + native_session(RUN, [])
                + native_session(CALLBACK, [], sources=(CALLBACK_SRC,)))
    for arch in ARCHES:
        failures += linked_session(arch, "-O0", SESSION, [])
        failures += linked_session(arch, "-O0", FAULT, ["fault"])
        failures += linked_session(arch, "-O2", SESSION_O2, ["fault"], fault_ends=False)
        failures += linked_session(arch, "-O0", CALLBACK, [], [], "callback", sources=(CALLBACK_SRC,),
                                   stdout_expected="first 0\n", code_expected=0)
    failures += linked_session(ARCHES[0], "-O0", HELD, [], ["-timeout-ms=3000"], "held")
    failures += linked_session(ARCHES[0], "-O0", INTERRUPT, [], [], "interrupt")
    failures += stdin_session(ARCHES[0])
    for arch in ARCHES[:2]:
        failures += linked_session(arch, "-O0", RUN, [], [], "run-cmd", remote="extended-remote", start="run",
                                   stdout_expected="total 34 counter 5\ntotal 28 counter 3\n")
    failures += linked_session(ARCHES[-1], "-O0", SESSION, [], [], "archive", archive=True)
    for arch in ARCHES[:2]:
        failures += linked_session(arch, "-O0", THREADS, [], [], "threads", sources=(THREADS_SRC,),
                                   stdout_expected="shared 42\n", code_expected=0)
    failures += cli_errors()
    for f in failures:
        print("FAIL", f)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


sys.exit(main())
