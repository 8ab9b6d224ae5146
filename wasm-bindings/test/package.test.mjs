// The package as a user gets it: packed with `npm pack` (its "files" and
// "exports"), installed into a fresh project, and used there through `npx
// linklab-run` and `import 'linklab/bundle'`. A C hello the test builds
// runs with piped stdin on every architecture as under the native linklab;
// a session saved by `linklab -save-bundle` and `-share-url` replays from
// the file and from the link; a replay whose fault lands elsewhere than
// recorded is reported as a mismatch, exit status 1.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as L from '../node.mjs';
import { config } from './helpers.mjs';

const work = mkdtempSync(join(tmpdir(), 'linklab-package-'));
const project = join(work, 'project');
const TRIPLES = {
  x86_64: 'x86_64-unknown-linux-gnu', aarch64: 'aarch64-unknown-linux-gnu', riscv64: 'riscv64-unknown-linux-gnu',
};
const env = { ...process.env, LINKLAB_EXECUTOR: config.executor };

beforeAll(() => {
  execFileSync('mkdir', ['-p', project]);
  const packed = execFileSync('npm', ['pack', join(config.root, 'wasm-bindings'), '--pack-destination', work,
                                      '--silent'], { encoding: 'utf8' }).trim().split('\n').pop();
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true, type: 'module' }));
  // The package has no runtime dependencies: the install needs no registry.
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', join(work, packed)],
               { cwd: project });
});

function compile(src, arch) {
  const out = join(work, `${src.replace(/\.c$/, '')}-${arch}.o`);
  execFileSync('clang-22', ['-Qunused-arguments', '-fno-stack-protector',
    ...L.runtimeInfo(TRIPLES[arch]).cflags.split(' '), '-O1', '-c', join(config.root, 'tests/inputs/repro', src),
    '-o', out]);
  return out;
}
const npx = (args, input = '') =>
  spawnSync('npx', ['--no-install', 'linklab-run', ...args],
            { cwd: project, env, input, encoding: 'utf8', maxBuffer: 1 << 26 });
const native = (args, input = '') => spawnSync(config.linklab, args, { input, encoding: 'utf8', maxBuffer: 1 << 26 });
const result = (r) => ({ status: r.status, stdout: r.stdout, stderr: r.stderr });

test.each(Object.keys(TRIPLES))('npx linklab-run runs a C program reading stdin on %s as linklab does', (arch) => {
  const objs = [compile('table_main.c', arch), compile('table_ops.c', arch)];
  const n = native(objs, '2 9\n');
  expect(n.stdout).toBe('add(2, 9) = 11\nmul(2, 9) = 18\nsub(2, 9) = -7\ncalls: 3\n');
  expect(result(npx(objs, '2 9\n'))).toEqual(result(n));
});

// Options whose effect is a host file, a host process or a tool only the
// native command makes: refused by name, not accepted and ignored. Every
// option the package lists (nativeOnlyOptions) is tried, spelled as a user
// would; through the installed bin for two, through runCli (the bin's
// code) for all.
const SPELLED = {
  '-perf-support': '-perf-support', '-gdb': '-gdb', '-debug-script': '-debug-script=prog.gdb',
  '-write-symtab': '-write-symtab=syms.txt', '-symbolicate-with': '-symbolicate-with=syms.txt', '-jd': '-jd=lib',
  '-weak_library': '-weak_library=lib.tbd', '-add-self-relocations': '-add-self-relocations',
  '-debugger-support': '-debugger-support', '-check': '-check=rules.txt', '-call': '-call=main',
  '-export-test': `-export-test=${join(work, 'out.test')}`, '-reduce': '-reduce',
  '-save-bundle': `-save-bundle=${join(work, 'b.json')}`,
  '-share-url': '-share-url=https://linklab.example/',
};
const refused = (r, name) => {
  expect(r.status).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(new RegExp(`^linklab error: option '${name}' is not supported by linklab-run \\(`));
  expect(r.stderr).toMatch(/\): use the native linklab CLI\n$/);
};
test('linklab-run refuses every native-only option by name, and writes nothing', async () => {
  const { runCli } = await import('../lib/cli.mjs');
  const listed = L.nativeOnlyOptions().map((o) => o.name);
  expect(Object.keys(SPELLED).sort()).toEqual([...listed].sort()); // a new one needs a spelling here
  const obj = compile('table_main.c', 'x86_64');
  for (const name of listed) {
    let stdout = '', stderr = '';
    const status = await runCli([SPELLED[name], obj], { stdout: { write: (s) => { stdout += s; } },
                                                       stderr: { write: (s) => { stderr += s; } } });
    refused({ status, stdout, stderr }, name);
  }
  for (const f of ['out.test', 'b.json']) expect(existsSync(join(work, f))).toBe(false);
});
test.each(['-gdb', '-save-bundle'])('npx linklab-run refuses the native-only option %s', (name) => {
  refused(npx([SPELLED[name], compile('table_main.c', 'x86_64')]), name);
});

test('npx linklab-run --replay takes a bundle file or a share link, with the recorded stdin', async () => {
  const objs = [compile('table_main.c', 'aarch64'), compile('table_ops.c', 'aarch64')];
  const bundle = join(work, 'table.linklab.json');
  const n = native([`-save-bundle=${bundle}`, '-share-url=https://linklab.example/', ...objs], '4 5\n');
  const link = /share link: (\S+)/.exec(n.stderr)[1];
  for (const what of [bundle, link]) {
    const r = npx(['--replay', what]);
    expect(r.stdout).toBe(n.stdout);
    expect(r.stderr).toMatch(/the replay matches the recorded outcome/);
    expect(r.status).toBe(0);
  }
  // The installed package's decoder (linklab/bundle) reads the link as the file.
  const script = join(project, 'decode.mjs');
  writeFileSync(script, "import { decodeFragment } from 'linklab/bundle';\n" +
    'const { session } = await decodeFragment(process.argv[2]);\nprocess.stdout.write(JSON.stringify(session));\n');
  const decoded = JSON.parse(execFileSync(process.execPath, [script, link], { cwd: project, encoding: 'utf8' }));
  expect(decoded).toEqual(JSON.parse(readFileSync(bundle, 'utf8')));
});

test('npx linklab-run --replay reports a fault at another address as a mismatch', () => {
  const obj = compile('null_field.c', 'riscv64');
  const bundle = join(work, 'fault.linklab.json');
  expect(native([`-save-bundle=${bundle}`, obj]).status).toBe(139);
  const same = npx(['--replay', bundle]);
  expect(same.status).toBe(0);
  // The replay says how the program ended, as the native command reports a fault.
  expect(same.stderr)
    .toMatch(/^linklab-run: the program read of unmapped memory at pc 0x[0-9a-f]+ \(main\+0x[0-9a-f]+ in /m);
  expect(same.stderr).toMatch(/null_field-riscv64\.o\), null pointer\+0x10 \(address 0x10\)\n/);
  const saved = JSON.parse(readFileSync(bundle, 'utf8'));
  saved.outcome.fault.address = '0x8';
  const moved = join(work, 'fault-moved.linklab.json');
  writeFileSync(moved, JSON.stringify(saved));
  const r = npx(['--replay', moved]);
  expect(r.stderr)
    .toMatch(/the replay differs from the recorded outcome:\n {2}fault address: recorded "0x8", replayed "0x10"/);
  expect(r.status).toBe(1);
});
