#!/usr/bin/env python3
"""Builds the fuzz targets' seed corpora from the repository's test sources
(nothing binary is committed): objects assembled from tests/lit and
tests/inputs as their RUN lines do, C test programs compiled for every
triple below, yaml2obj's malformed objects, archives of those objects, the
jitlink-check rules and callconv entries the tests use, and linklab-style
session headers. Also writes the linked fixtures the check target loads.

usage: make-seeds.py SOURCE-DIR OUT-DIR SEED-TOOL (fuzz/seed_tool.cpp)"""
import concurrent.futures, os, re, shutil, subprocess, sys, tempfile

SRC, OUT, SEED_TOOL = (os.path.abspath(a) for a in sys.argv[1:4])
# The target registry's rows (format x arch): the C seeds are compiled for
# each, so a format or arch that gains a row gains seeds with no change here.
TRIPLES = subprocess.run([SEED_TOOL, '--triples'], capture_output=True, text=True, check=True).stdout.split()
LIT_ARCH = {'x86_64': 'x86_64-unknown-linux-gnu', 'aarch64': 'aarch64-unknown-linux-gnu',
            'riscv64': 'riscv64-unknown-linux-gnu'}
TARGETS = ['object', 'archive', 'check', 'callconv', 'protocol', 'executor', 'session', 'gdb_stub', 'dylib',
           'inspect', 'runtime_image']


def out(target, name, data):
    with open(os.path.join(OUT, 'seeds', target, name), 'wb') as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def run(cmd):
    return subprocess.run(cmd, capture_output=True).returncode == 0


def lit_tests():
    """(path, arch dir, [RUN command lines with continuations joined])"""
    for d in sorted(os.listdir(os.path.join(SRC, 'tests/lit'))):
        full = os.path.join(SRC, 'tests/lit', d)
        if not os.path.isdir(full):
            continue
        for n in sorted(os.listdir(full)):
            if n.endswith('.s'):
                p = os.path.join(full, n)
                text = open(p).read()
                runs, cur = [], ''
                for line in text.splitlines():
                    m = re.match(r'\s*#\s*RUN:\s?(.*)', line)
                    if not m:
                        continue
                    cur += m.group(1)
                    if cur.endswith('\\'):
                        cur = cur[:-1] + ' '
                    else:
                        runs.append(cur)
                        cur = ''
                yield p, d, text, runs


def assemble_lit(tmp):
    """Each lit test's llvm-mc commands, as run-lit.py substitutes them:
    returns [(object path, its -o name, the test's text, the linklab flags)]."""
    objs = []
    for p, d, text, runs in lit_tests():
        t = os.path.join(tmp, 'lit', d, os.path.basename(p))
        os.makedirs(t, exist_ok=True)
        flags = next((r for r in runs if r.strip().startswith('linklab ')), '')
        for r in runs:
            for cmd in r.split('|')[0].split('&&'):
                cmd = cmd.strip()
                if not cmd.startswith('llvm-mc'):
                    continue
                cmd = cmd.replace('%t', t).replace('%s', p).replace('%S', os.path.dirname(p))
                args = ['llvm-mc-22'] + cmd.split()[1:]
                o = args[args.index('-o') + 1] if '-o' in args else None
                if o and run(args):
                    objs.append((o, os.path.basename(o), text, flags))
    return objs


def compile_c(tmp):
    jobs = []
    for d in ['run', 'seed', 'tls', 'callconv']:
        base = os.path.join(SRC, 'tests/inputs', d)
        for n in sorted(os.listdir(base)):
            if n.endswith('.c'):
                for t in TRIPLES:
                    o = os.path.join(tmp, 'c', f'{t}-{d}-{n[:-2]}.o')
                    # Freestanding: the seeds need the code shapes, not a libc's headers.
                    jobs.append((['clang-22', f'--target={t}', '-O1', '-fPIC', '-ffreestanding', '-w',
                                  '-c', os.path.join(base, n), '-o', o], o, t))
    os.makedirs(os.path.join(tmp, 'c'), exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        ok = list(ex.map(lambda j: run(j[0]), jobs))
    return [(o, t) for (cmd, o, t), good in zip(jobs, ok) if good]


def main():
    for d in ['seeds', 'fixtures']:
        shutil.rmtree(os.path.join(OUT, d), ignore_errors=True)
    for t in TARGETS:
        os.makedirs(os.path.join(OUT, 'seeds', t))
    fixtures = os.path.join(OUT, 'fixtures')
    os.makedirs(fixtures)
    tmp = tempfile.mkdtemp(prefix='linklab-seeds-')
    try:
        lit = assemble_lit(tmp)
        c = compile_c(tmp)
        # Other assembly sources: their arch is in their file or folder name.
        other = []
        for d in ['aarch64', 'lld_oracle', 'callconv']:
            base = os.path.join(SRC, 'tests/inputs', d)
            for n in sorted(os.listdir(base)):
                arch = d if d in LIT_ARCH else n.split('_custom')[0].split('.')[0]
                if n.endswith('.s') and arch in LIT_ARCH:
                    o = os.path.join(tmp, f'{d}-{n}.o')
                    if run(['llvm-mc-22', f'-triple={LIT_ARCH[arch]}', '-filetype=obj', os.path.join(base, n),
                            '-o', o]):
                        other.append((o, arch))
        yamls = []
        for d in ['bad', 'aarch64']:
            base = os.path.join(SRC, 'tests/inputs', d)
            for n in sorted(os.listdir(base)):
                o = os.path.join(tmp, f'{d}-{n}.o')
                if n.endswith('.yaml') and run(['yaml2obj-22', os.path.join(base, n), '-o', o]):
                    yamls.append(o)

        # Universal MachO files: the lit tests' first x86-64 and arm64 MachO objects, lipo'd.
        macho = {}
        for o, *_ in lit:
            d = os.path.basename(os.path.dirname(os.path.dirname(o)))
            if d in ('x86_64', 'aarch64') and open(o, 'rb').read(4) == b'\xcf\xfa\xed\xfe':
                macho.setdefault(d, o)
        if len(macho) == 2:
            u = os.path.join(tmp, 'universal.o')
            if run(['llvm-lipo-22', '-create', '-output', u, '-arch', 'x86_64', macho['x86_64'],
                    '-arch', 'arm64', macho['aarch64']]):
                yamls.append(u)
        # -weak_library's inputs: the lit tests' text stubs and dylibs (YAML).
        for d in sorted(os.listdir(os.path.join(SRC, 'tests/lit'))):
            base = os.path.join(SRC, 'tests/lit', d, 'Inputs')
            for n in sorted(os.listdir(base)) if os.path.isdir(base) else []:
                if n.endswith('.tbd'):
                    out('dylib', f'{d}-{n}', open(os.path.join(base, n), 'rb').read())
                elif n.endswith('.yaml') and 'dylib' in open(os.path.join(base, n)).read().lower():
                    o = os.path.join(tmp, f'dylib-{d}-{n}.o')
                    if run(['yaml2obj-22', os.path.join(base, n), '-o', o]):
                        out('dylib', f'{d}-{n}.o', open(o, 'rb').read())
        objects = [o for o, *_ in lit] + [o for o, _ in c] + [o for o, _ in other] + yamls
        for i, o in enumerate(objects):
            data = open(o, 'rb').read()
            out('object', f'{i:03}-{os.path.basename(o)}', data)
            # Inspect: the MachO (thin, universal) and COFF (x86-64) objects.
            if data[:4] in (b'\xcf\xfa\xed\xfe', b'\xca\xfe\xba\xbe') or data[:2] == b'\x64\x86':
                out('inspect', f'{i:03}-{os.path.basename(o)}', data)

        # Archives: each C directory's objects per triple, and each lit arch's objects.
        groups = {}
        for o, t in c:
            groups.setdefault(t, []).append(o)
        for o, name, text, _ in lit:
            groups.setdefault('lit-' + os.path.basename(os.path.dirname(os.path.dirname(o))), []).append(o)
        for g, members in sorted(groups.items()):
            a = os.path.join(tmp, f'{g}.a')
            if run(['llvm-ar-22', 'rcs', a] + members[:12]):
                out('archive', f'{g}.a', open(a, 'rb').read())

        # Check: fixtures under their RUN names (first of a name wins), and
        # each test's rules against its fixture.
        for o, name, text, _ in lit:
            if not os.path.exists(os.path.join(fixtures, name)):
                shutil.copy(o, os.path.join(fixtures, name))
            rules = [l for l in text.splitlines() if 'jitlink-check:' in l]
            if rules:
                out('check', f'{os.path.basename(os.path.dirname(o))}-{name}.txt', name + '\n' + '\n'.join(rules) + '\n')

        # Callconv: entries from the tests' .linklab.callconv sections and
        # the (spec, signature) pairs the unit tests plan.
        entries = set()
        for root in ['tests/lit', 'tests/inputs', 'tests/unit']:
            for dp, _, files in os.walk(os.path.join(SRC, root)):
                for n in files:
                    text = open(os.path.join(dp, n), errors='replace').read()
                    arch_of = next((a for a in LIT_ARCH if a in dp or n.startswith(a)), None)
                    for m in re.finditer(r'\.asciz\s+"([^"=]+)=([^";]+);([^"]*)"', text):
                        if arch_of:
                            entries.add((LIT_ARCH[arch_of], m.group(2), m.group(3), m.group(1) + '=' + m.group(2) + ';' + m.group(3)))
                    for m in re.finditer(r'planFor\(Arch::(\w+), "([^"]*)", "([^"]*)"\)', text):
                        arch = {'X86_64': 'x86_64', 'AArch64': 'aarch64', 'RISCV64': 'riscv64'}.get(m.group(1))
                        if arch:
                            entries.add((LIT_ARCH[arch], m.group(3), m.group(2), 'f=' + m.group(3) + ';' + m.group(2)))
        for i, (triple, sig, spec, entry) in enumerate(sorted(entries)):
            nparams = 0 if sig.endswith('()') else sig.count(',') + 1
            args = ','.join(str(k + 1) for k in range(nparams))
            out('callconv', f'{i:03}.txt', '\n'.join([triple, sig, spec, spec, args, entry]) + '\n')
            out('callconv', f'{i:03}-std.txt', '\n'.join([triple, sig, '', 'standard', args, entry]) + '\n')

        # Session: each lit test's object with its linklab flags as session fields.
        for i, (o, name, text, flags) in enumerate(lit):
            hdr = [f'triple {LIT_ARCH.get(os.path.basename(os.path.dirname(os.path.dirname(o))), "")}']
            m = re.search(r'-slab-address\s+(\S+)', flags)
            if m:
                hdr.append(f'slab {m.group(1)}')
            hdr += [f'abs {a}' for a in re.findall(r'-abs\s+(\S+=\S+)', flags)]
            if '-phony-externals' in flags:
                hdr.append('phony 1')
            hdr += ['limits 1000,100,64', 'entry main', '--']
            out('session', f'{i:03}-{name}', ('\n'.join(hdr) + '\n').encode() + open(o, 'rb').read())

        # GDB stub: what gdb-multiarch sends a stub in a session
        # (tests/debug/gdb_test.py's), one packet per seed and all together.
        packets = ['qSupported:multiprocess+;swbreak+;hwbreak+;qRelocInsn+;fork-events+;vContSupported+',
                   'vMustReplyEmpty', 'QStartNoAckMode', 'Hgp0.0', 'qXfer:features:read:target.xml:0,ffb',
                   'qXfer:features:read:target.xml:100,80', 'qXfer:siginfo:read::0,80', 'qXfer:siginfo:read::7c,80', 'qXfer:auxv:read::0,100', 'qTStatus', '?', 'qfThreadInfo', 'qsThreadInfo',
                   'qAttached:1', 'Hc-1', 'qC', 'g', 'p8', 'P8=0011223344556677', 'G' + '00' * 64,
                   'm1000,40', 'M1000,4:deadbeef', 'X1000,3:a}]b', 'Z0,1010,1', 'z0,1010,1', 'Z1,1010,4',
                   'Z2,1020,4', 'z2,1020,4', 'Z3,1020,8', 'z3,1020,8', 'Z4,1024,2', 'z4,1024,2',
                   'vCont?', 'vCont;s:3e8;c', 'vCont;c', 'c', 's',
                   'C0b', 'Hg3e9', 'T3e9', 'D', 'vKill;3e8', '!', 'vRun;70726f67', 'k']
        def framed(p):
            return f'${p}#{sum(p.encode()) % 256:02x}'
        for i, p in enumerate(packets):
            out('gdb_stub', f'{i:03}', b'\x07+' + framed(p).encode())
        out('gdb_stub', 'session', b'\x10' + ''.join('+' + framed(p) for p in packets).encode() + b'\x03')
        if not run([SEED_TOOL, os.path.join(OUT, 'seeds/protocol'), os.path.join(OUT, 'seeds/executor'),
                    os.path.join(OUT, 'seeds/runtime_image')]):
            sys.exit('make-seeds: seed_tool failed')
        for t in TARGETS:
            n = len(os.listdir(os.path.join(OUT, 'seeds', t)))
            if n == 0:
                sys.exit(f'make-seeds: no seeds for {t}')
            print(f'make-seeds: {t}: {n} seeds')
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


main()
