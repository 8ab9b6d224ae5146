// linklab-run (the package's CLI, lib/cli.mjs on the wasm build) runs C
// programs as the native linklab does: every gallery example of the page
// (web/examples/gallery.json) on the page's architectures, and every glibc
// parity program (tests/inputs/parity) on one of the architectures the
// package has a C runtime for (each in turn), gives the same stdout, stderr
// and exit status under both, stdin and input files included. Each object is
// compiled once and run by both; the cases run two at a time (each is two
// processes run in turn).
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as L from '../node.mjs';
import { config, slots } from './helpers.mjs';

const work = mkdtempSync(join(tmpdir(), 'linklab-cli-parity-'));
const cli = join(config.root, 'wasm-bindings/bin/linklab-run.mjs');
const compile = promisify(execFile);
const EXAMPLES = join(config.root, 'web/examples');
const GALLERY = JSON.parse(readFileSync(join(EXAMPLES, 'gallery.json'), 'utf8')).examples;
const TRIPLES = {
  x86_64: 'x86_64-unknown-linux-gnu', aarch64: 'aarch64-unknown-linux-gnu', riscv64: 'riscv64-unknown-linux-gnu',
};

// The command line of example `ex` on `arch`: its objects (harnesses after
// -harness) and its arguments.
async function commandLine(ex, arch) {
  const flags = ['-Qunused-arguments', '-fno-stack-protector', ...L.runtimeInfo(TRIPLES[arch]).cflags.split(' ')];
  const objs = [];
  for (const o of ex.objects) {
    const src = o.src.replace('{arch}', arch);
    const out = join(work, `${ex.id}-${arch}-${src.replace(/\.[cs]$/, '')}.o`);
    await compile('clang-22', [...flags, ...(o.cflags ?? []), '-O1', '-c', join(EXAMPLES, src), '-o', out]);
    objs.push({ path: out, harness: !!o.harness });
  }
  const plain = objs.filter((o) => !o.harness).map((o) => o.path);
  const harness = objs.filter((o) => o.harness).map((o) => o.path);
  const argv = ex.args ? ['-args', plain[0], ...ex.args] : [];
  return harness.length ? [...plain, ...argv, '-harness', ...harness] : [...plain, ...argv];
}
// linklab-run is given the executor the native linklab runs (its default is the one on PATH).
const wasmCli = (args) => [cli, `-oop-executor=${config.executor}`, ...args];
const run = (cmd, args, input) => {
  const r = spawnSync(cmd, args, { input, encoding: 'utf8', maxBuffer: 1 << 26 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};
// As run, without blocking: the concurrent cases below.
function runAsync(cmd, args, input = '') {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [], err = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => err.push(b));
    child.stdin.on('error', () => {}); // EPIPE: a program that reads no stdin
    child.on('error', reject);
    child.on('close', (status) => resolve({
      status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'),
    }));
    child.stdin.end(input);
  });
}
// At most two cases at a time: each runs its processes in turn.
const inSlot = slots(2);

const CASES = Object.keys(TRIPLES).flatMap((arch) => GALLERY.map((ex) => [ex.id, arch, ex]));
test.concurrent.each(CASES)('gallery %s on %s: linklab-run gives linklab\'s output and status', (id, arch, ex) =>
  inSlot(async () => {
    const args = await commandLine(ex, arch);
    const native = await runAsync(config.linklab, args, 'typed input\n');
    const wasm = await runAsync(process.execPath, wasmCli(args), 'typed input\n');
    expect(native.stdout.length).toBeGreaterThan(0);
    expect(wasm).toEqual(native);
  }), 600000); // a bound, not a time check: a case may wait for a slot on a loaded machine

// The parity programs as tests/unit/run_programs_test.cpp runs them (-O2
// -fPIC, argv "./prog a 'b c'", NAME.stdin piped in, NAME.input given with
// -file), compiled with the package's flags for the arch (runtimeInfo), on
// the arches the package has a C runtime for.
const PARITY = join(config.root, 'tests/inputs/parity');
const PROGRAMS = readdirSync(PARITY).filter((f) => f.endsWith('.c')).map((f) => f.replace(/\.c$/, '')).sort();
const RUN_ARCHES = L.targets().filter((arch) => {
  try {
    return L.runtimeInfo(`${arch}-unknown-linux-gnu`).files.length > 0;
  } catch {
    return false; // no C runtime: the package runs no C program there
  }
});
test('the parity programs run on x86_64, aarch64, riscv64, i386 and armv7', () => {
  expect(RUN_ARCHES).toEqual(expect.arrayContaining(['x86_64', 'aarch64', 'riscv64', 'i386', 'armv7']));
});
// Each program on one arch, the arches in turn: every program and every arch
// is covered (the native parity suite runs each program on each arch).
const PARITY_CASES = PROGRAMS.map((name, i) => [name, RUN_ARCHES[i % RUN_ARCHES.length]]);
test.concurrent.each(PARITY_CASES)('parity program %s on %s: linklab-run gives linklab\'s output and status',
  (name, arch) => inSlot(async () => {
    const obj = join(work, `parity-${name}-${arch}.o`);
    const cflags = L.runtimeInfo(`${arch}-unknown-linux-gnu`).cflags.split(' ');
    await compile('clang-22', [...cflags, '-O2', '-fPIC', '-c', join(PARITY, `${name}.c`), '-o', obj]);
    const input = join(PARITY, `${name}.input`), feed = join(PARITY, `${name}.stdin`);
    const file = existsSync(input) ? ['-file', `${name}.input=${input}`] : [];
    const args = [obj, ...file, '-args', './prog', 'a', 'b c'];
    const stdin = existsSync(feed) ? readFileSync(feed) : '';
    const native = await runAsync(config.linklab, args, stdin);
    expect(native.stdout.length + native.stderr.length).toBeGreaterThan(0);
    expect(await runAsync(process.execPath, wasmCli(args), stdin)).toEqual(native);
  }), 600000);

// -noexec places the link where a run would (as the native command does):
// every symbol, GOT entry and stub of the program and of the C runtime's
// members at the native command's address, in its order.
test('-noexec -show-addrs: linklab-run lays the program and the C runtime out as linklab does', () => {
  const obj = join(work, 'noexec-hello.o');
  execFileSync('clang-22', [...L.runtimeInfo(TRIPLES.x86_64).cflags.split(' '), '-O1', '-c',
    join(config.root, 'tests/inputs/seed/hello-world.c'), '-o', obj]);
  const args = ['-noexec', '-show-addrs', obj];
  const native = run(config.linklab, args);
  expect(native.status).toBe(0);
  expect(native.stdout).toMatch(/File "\/usr\/lib\/x86_64-linux-gnu\/crt1\.o"[^]*libc\.a\(ioputs\.o\)"/);
  expect(run(process.execPath, wasmCli(args))).toEqual(native);
});

test('-env and -file reach the program as natively; malformed ones are the same errors', () => {
  const src = join(work, 'env_file.c'), obj = join(work, 'env_file.o'), note = join(work, 'note.txt');
  writeFileSync(src, '#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n' +
    '  const char *v = getenv("GREETING");\n  printf("GREETING=%s\\n", v ? v : "(unset)");\n' +
    '  char b[64] = "(none)\\n";\n  FILE *f = fopen("note.txt", "r");\n  if (f) fgets(b, sizeof b, f);\n' +
    '  printf("note: %s", b);\n  return v ? 0 : 4;\n}\n');
  writeFileSync(note, 'from the host\n');
  execFileSync('clang-22', ['--target=x86_64-linux-gnu', '-O1', '-c', src, '-o', obj]);
  const args = [obj, '-env', 'GREETING=hi', '-file', `note.txt=${note}`];
  const native = run(config.linklab, args);
  expect(native).toEqual({ status: 0, stdout: 'GREETING=hi\nnote: from the host\n', stderr: '' });
  expect(run(process.execPath, wasmCli(args))).toEqual(native);
  for (const bad of [['-env', 'GREETING'], ['-file', 'note.txt']]) {
    const e = run(config.linklab, [obj, ...bad]);
    expect(e.status).toBe(1);
    expect(run(process.execPath, wasmCli([obj, ...bad]))).toEqual(e);
  }
});

test('a program reading stdin and faulting: the same output, error and status 139', () => {
  const out = join(work, 'null.o');
  execFileSync('clang-22', ['-Qunused-arguments', '-fno-stack-protector',
    ...L.runtimeInfo(TRIPLES.x86_64).cflags.split(' '), '-O1', '-c',
    join(config.root, 'tests/inputs/repro/null_field.c'), '-o', out]);
  const native = run(config.linklab, [out]);
  const wasm = run(process.execPath, wasmCli([out]));
  expect(native.status).toBe(139);
  expect(native.stderr).toMatch(/null pointer\+0x10 \(address 0x10\)/);
  expect(wasm).toEqual(native);
  const table = ['table_main.c', 'table_ops.c'].map((f) => {
    const o = join(work, f.replace('.c', '.o'));
    execFileSync('clang-22', ['-Qunused-arguments', '-fno-stack-protector',
      ...L.runtimeInfo(TRIPLES.x86_64).cflags.split(' '), '-O1', '-c', join(config.root, 'tests/inputs/repro', f),
      '-o', o]);
    return o;
  });
  const n = run(config.linklab, table, '5 6\n');
  expect(n.stdout).toMatch(/mul\(5, 6\) = 30/);
  expect(run(process.execPath, wasmCli(table), '5 6\n')).toEqual(n);
});

test('-show-init-es, -show-entry-es, -all_load and -sectcreate in a run: linklab\'s tables, output and status', () => {
  const obj = join(work, 'strlen.o');
  execFileSync('llvm-mc-22', ['-triple=x86_64-unknown-linux', '-filetype=obj', '-o', obj,
    join(config.root, 'tests/lit/x86_64/Inputs/cli_show_es_process.s')]);
  // The tables print host pointers (the session's, each materializer's), as llvm-jitlink's do.
  const stable = (r) => ({ ...r, stdout: r.stdout.replace(/(ES: |Materializer )0x[0-9a-f]+/g, '$1<pointer>') });
  const args = ['-show-init-es', '-show-entry-es', obj];
  const native = stable(run(config.linklab, args));
  expect(native.stdout).toMatch(/"main": <not resolved>[^]*"strlen": 0x[0-9a-f]+ \[Data\] Ready/);
  expect(stable(run(process.execPath, wasmCli(args)))).toEqual(native);
  // Every member of an archive (-all_load) and a section of a file's bytes (-sectcreate), in a run.
  const lib = join(work, 'libstrlen.a');
  execFileSync('llvm-ar-22', ['crs', lib, obj]);
  const data = join(work, 'data.txt');
  writeFileSync(data, 'abcd');
  const more = ['-triple=x86_64-unknown-linux-gnu', '-show-init-es', '-all_load', `-sectcreate=__data,${data}@blob=0`,
                lib];
  const n = stable(run(config.linklab, more));
  expect(n.status).toBe(0);
  expect(n.stdout).toContain('libstrlen.a[0](strlen.o))'); // the member, added before any lookup
  expect(stable(run(process.execPath, wasmCli(more)))).toEqual(n);
  // -sectcreate is read in a run too: a symbol past the file's end is the same error.
  const past = ['-triple=x86_64-unknown-linux-gnu', `-sectcreate=__data,${data}@blob=5`, lib];
  const e = run(config.linklab, past);
  expect(e.stderr).toMatch(/blob/);
  expect(e.status).toBe(1);
  expect(run(process.execPath, wasmCli(past))).toEqual(e);
});
