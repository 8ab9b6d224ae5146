// The reproducer round trip from the native CLI: a run saved with
// `linklab -save-bundle` and `-share-url` replays under `replayBundle`
// (linklab/jest) and `linklab-run --replay` (file or link) with the
// recorded stdin, arguments and limits, to the recorded outcome exactly:
// exit status, stdout, stderr, and for a fault its kind, pc, address and
// symbol. A replay that differs fails, saying what differs.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as L from '../node.mjs';
import { replayBundle } from '../jest.mjs';
import { BUNDLE_VERSION, decodeFragment, encodeBundle } from '../lib/bundle.mjs';
import { config } from './helpers.mjs';

const work = mkdtempSync(join(tmpdir(), 'linklab-roundtrip-'));
const cli = join(config.root, 'wasm-bindings/bin/linklab-run.mjs');
// The page's three, and the two more the package runs C programs on.
const TRIPLES = {
  x86_64: 'x86_64-unknown-linux-gnu', aarch64: 'aarch64-unknown-linux-gnu', riscv64: 'riscv64-unknown-linux-gnu',
  i386: 'i386-unknown-linux-gnu', armv7: 'armv7-unknown-linux-gnueabihf',
};
// null_field.c's field `next`: the third long.
const NEXT = { i386: '0x8', armv7: '0x8' };

function compile(src, arch) {
  const out = join(work, `${src.replace(/\.c$/, '')}-${arch}.o`);
  execFileSync('clang-22', ['-Qunused-arguments', '-fno-stack-protector',
    ...L.runtimeInfo(TRIPLES[arch]).cflags.split(' '), '-O1', '-c', join(config.root, 'tests/inputs/repro', src),
    '-o', out]);
  return out;
}
// The native linklab with `args`, `stdin` on fd 0: {status, stdout, stderr}.
const native = (args, stdin = '') =>
  spawnSync(config.linklab, args, { input: stdin, encoding: 'utf8', maxBuffer: 1 << 26 });
const replayCli = (what) => spawnSync(process.execPath, [cli, '--replay', what, '--executor', config.executor],
                                      { encoding: 'utf8' });

describe.each(Object.keys(TRIPLES))('on %s', (arch) => {
  test('a two-object program with a function-pointer table, a global, stdin and printf', async () => {
    const objs = [compile('table_main.c', arch), compile('table_ops.c', arch)];
    const bundle = join(work, `table-${arch}.linklab.json`);
    const r = native([`-save-bundle=${bundle}`, '-share-url=http://127.0.0.1:1/', '-max-instructions=50000000',
                      ...objs], '6 7\n');
    expect(r.stdout).toBe('add(6, 7) = 13\nmul(6, 7) = 42\nsub(6, 7) = -1\ncalls: 3\n');
    expect(r.status).toBe(3);
    const saved = JSON.parse(readFileSync(bundle, 'utf8'));
    expect(saved.version).toBe(BUNDLE_VERSION); // the format the package reads
    expect(saved.run).toMatchObject({ stdin: '6 7\n', instructions: '50000000' });
    expect(saved.outcome).toEqual({ status: 'exited', exitCode: 3, stdout: r.stdout, stderr: '' });

    const replayed = await replayBundle(bundle, { executor: config.executor });
    expect(replayed.outcome).toEqual(saved.outcome);
    expect(replayed.notes).toEqual([]);
    const link = /share link: (\S+)/.exec(r.stderr)[1];
    expect((await decodeFragment(link)).session).toEqual(saved);
    for (const what of [bundle, link]) {
      const c = replayCli(what);
      expect(c.stderr).toMatch(/the replay matches the recorded outcome/);
      expect(c.stdout).toBe(r.stdout);
      expect(c.status).toBe(0);
    }
    // Other stdin: the replay differs and says where.
    const other = join(work, `table-${arch}-other.linklab.json`);
    writeFileSync(other, encodeBundle({ ...saved, run: { ...saved.run, stdin: '1 1\n' } }));
    await expect(replayBundle(other, { executor: config.executor })).rejects.toThrow(/stdout: recorded "add\(6, 7\)/);
    expect(replayCli(other).status).toBe(1);
  });

  test('a faulting program: kind, pc, address and symbol are recorded and must match', async () => {
    const obj = compile('null_field.c', arch);
    const bundle = join(work, `fault-${arch}.linklab.json`);
    const r = native([`-save-bundle=${bundle}`, obj]);
    expect(r.status).toBe(139);
    const saved = JSON.parse(readFileSync(bundle, 'utf8'));
    expect(saved.outcome.status).toBe('fault');
    expect(saved.outcome.stdout).toBe('reading\n');
    const next = NEXT[arch] ?? '0x10';
    expect(saved.outcome.fault).toMatchObject({ address: next });
    expect(saved.outcome.fault.symbol).toMatch(/^main\+0x[0-9a-f]+ in \.text of null_field-\w+\.o$/);
    // The command names the object by its path; the bundle by its base name, as the replay does.
    const { pc, symbol } = saved.outcome.fault;
    expect(r.stderr).toContain(`at pc ${pc} (${symbol.replace(' of ', ` of ${work}/`)}), null pointer+${next}`);
    const replayed = await replayBundle(bundle, { executor: config.executor });
    expect(replayed.outcome).toEqual(saved.outcome);
    // A replay that faults elsewhere does not match.
    const moved = { ...saved, outcome: { ...saved.outcome, fault: { ...saved.outcome.fault, address: '0x18' } } };
    await expect(replayBundle(moved, { executor: config.executor }))
      .rejects.toThrow(`fault address: recorded "0x18", replayed "${next}"`);
    // A version-2 bundle recorded no fault details nor stderr: it is compared on what it has.
    const { fault, stderr, ...v2outcome } = saved.outcome;
    expect([typeof fault, stderr]).toEqual(['object', '']);
    await expect(replayBundle({ ...saved, version: 2, outcome: v2outcome }, { executor: config.executor }))
      .resolves.toBeTruthy();
    await expect(replayBundle({ ...saved, version: 2, outcome: { ...v2outcome, stdout: 'other\n' } },
                              { executor: config.executor })).rejects.toThrow(/stdout: recorded "other\\n"/);
  });
});

test('a link error is the recorded outcome', async () => {
  const obj = compile('needs_missing.c', 'x86_64');
  const bundle = join(work, 'missing.linklab.json');
  const r = native([`-save-bundle=${bundle}`, obj]);
  expect(r.status).toBe(1);
  const saved = JSON.parse(readFileSync(bundle, 'utf8'));
  expect(saved.outcome.error).toMatch(/missing_fn/);
  expect((await replayBundle(bundle, { executor: config.executor })).outcome).toEqual(saved.outcome);
});

// Output is bytes, a bundle's JSON text: ill-formed UTF-8 is recorded as the
// page's TextDecoder reads it (U+FFFD for each broken sequence, one cut at
// the end too), and replays to the same; stdin a bundle cannot hold as
// text is refused.
test('output that is not UTF-8 is recorded as the page reads it, and replays so', async () => {
  const src = join(work, 'bytes.c'), obj = join(work, 'bytes.o');
  writeFileSync(src, '#include <stdio.h>\nint main(void) {\n' +
    '  fputs("a\\xff\\xe2\\x82 \\xe2\\x82\\xac\\xf0\\x9f", stdout);\n' +
    '  fputs("\\xc0\\x80!", stderr);\n  return 0;\n}\n');
  execFileSync('clang-22', [...L.runtimeInfo(TRIPLES.x86_64).cflags.split(' '), '-O1', '-c', src, '-o', obj]);
  const bundle = join(work, 'bytes.linklab.json');
  const r = native([`-save-bundle=${bundle}`, obj]);
  expect(r.status).toBe(0);
  // The file is UTF-8 text (a strict decoder, as JSON readers other than Node's are).
  const saved = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(bundle)));
  const bytes = (s) => Uint8Array.from(s, (c) => c.charCodeAt(0));
  expect(saved.outcome.stdout).toBe(new TextDecoder().decode(bytes('a\xff\xe2\x82 \xe2\x82\xac\xf0\x9f')));
  expect(saved.outcome.stdout).toBe('a\ufffd\ufffd \u20ac\ufffd');
  expect(saved.outcome.stderr).toBe('\ufffd\ufffd!');
  expect((await replayBundle(bundle, { executor: config.executor })).outcome).toEqual(saved.outcome);
  expect(replayCli(bundle).status).toBe(0);
  const reads = [compile('table_main.c', 'x86_64'), compile('table_ops.c', 'x86_64')];
  const e = native([`-save-bundle=${join(work, 'stdin.linklab.json')}`, ...reads], Buffer.from([0x41, 0xff, 0x0a]));
  expect(e.stderr).toMatch(/-save-bundle: the program's stdin is not UTF-8 text/);
  expect(e.status).toBe(1);
});

test('a share link too large for a URL is refused, naming -save-bundle', () => {
  const big = join(work, 'big.a');
  writeFileSync(big, readFileSync('/usr/lib/gcc/x86_64-linux-gnu/12/libgcc.a'));
  const r = native(['-share-url=http://x/', compile('table_main.c', 'x86_64'), compile('table_ops.c', 'x86_64'), big]);
  expect(r.stderr)
    .toMatch(/-share-url: this session is too large for a link \(\d+ KiB; links hold up to 48 KiB\): use -save-bundle/);
});

test('linklab, linklab-executor and linklab-run print the version the bundles record', () => {
  const pkg = JSON.parse(readFileSync(join(config.root, 'wasm-bindings/package.json'), 'utf8'));
  const want = `linklab version ${pkg.version}\n`;
  for (const flag of ['-version', '--version']) {
    expect(native([flag]).stdout).toBe(want);
    expect(spawnSync(config.executor, [flag], { encoding: 'utf8' }).stdout).toBe(want);
    expect(spawnSync(process.execPath, [cli, flag], { encoding: 'utf8' }).stdout).toBe(want);
  }
});

test('-triple is checked against the target registry by linklab-run as by linklab', () => {
  const obj = compile('table_ops.c', 'x86_64');
  for (const t of ['bogus', 'sparc-linux-gnu']) {
    const n = native(['-noexec', `-triple=${t}`, obj]);
    const w = spawnSync(process.execPath, [cli, '-noexec', `-triple=${t}`, obj], { encoding: 'utf8' });
    expect(n.stderr).toMatch(new RegExp(`-triple: '${t}' is not a target linklab supports ` +
                                        '\\(it links for x86_64-unknown-linux-gnu, '));
    expect(w.stderr).toBe(n.stderr);
    expect([n.status, w.status]).toEqual([1, 1]);
  }
});
