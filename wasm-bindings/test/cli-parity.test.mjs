// linklab-run (the package's CLI, lib/cli.mjs on the wasm build) runs C
// programs as the native linklab does: every gallery example of the page
// (web/examples/gallery.json) on every architecture the package runs gives
// the same stdout, stderr and exit status under both, stdin included.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as L from '../node.mjs';
import { config } from './helpers.mjs';

const work = mkdtempSync(join(tmpdir(), 'linklab-cli-parity-'));
const cli = join(config.root, 'wasm-bindings/bin/linklab-run.mjs');
const EXAMPLES = join(config.root, 'web/examples');
const GALLERY = JSON.parse(readFileSync(join(EXAMPLES, 'gallery.json'), 'utf8')).examples;
const TRIPLES = { x86_64: 'x86_64-unknown-linux-gnu', aarch64: 'aarch64-unknown-linux-gnu', riscv64: 'riscv64-unknown-linux-gnu' };

// The command line of example `ex` on `arch`: its objects (harnesses after
// -harness) and its arguments.
function commandLine(ex, arch) {
  const flags = ['-Qunused-arguments', '-fno-stack-protector', ...L.runtimeInfo(TRIPLES[arch]).cflags.split(' ')];
  const objs = ex.objects.map((o) => {
    const src = o.src.replace('{arch}', arch);
    const out = join(work, `${ex.id}-${arch}-${src.replace(/\.[cs]$/, '')}.o`);
    execFileSync('clang-22', [...flags, ...(o.cflags ?? []), '-O1', '-c', join(EXAMPLES, src), '-o', out]);
    return { path: out, harness: !!o.harness };
  });
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

const CASES = Object.keys(TRIPLES).flatMap((arch) => GALLERY.map((ex) => [ex.id, arch, ex]));
test.each(CASES)('gallery %s on %s: linklab-run gives linklab\'s output and status', (id, arch, ex) => {
  const args = commandLine(ex, arch);
  const native = run(config.linklab, args, 'typed input\n');
  const wasm = run(process.execPath, wasmCli(args), 'typed input\n');
  expect(native.stdout.length).toBeGreaterThan(0);
  expect(wasm).toEqual(native);
});

test('a program reading stdin and faulting: the same output, error and status 139', () => {
  const out = join(work, 'null.o');
  execFileSync('clang-22', ['-Qunused-arguments', '-fno-stack-protector', ...L.runtimeInfo(TRIPLES.x86_64).cflags.split(' '),
    '-O1', '-c', join(config.root, 'tests/inputs/repro/null_field.c'), '-o', out]);
  const native = run(config.linklab, [out]);
  const wasm = run(process.execPath, wasmCli([out]));
  expect(native.status).toBe(139);
  expect(native.stderr).toMatch(/null pointer\+0x10 \(address 0x10\)/);
  expect(wasm).toEqual(native);
  const table = ['table_main.c', 'table_ops.c'].map((f) => {
    const o = join(work, f.replace('.c', '.o'));
    execFileSync('clang-22', ['-Qunused-arguments', '-fno-stack-protector', ...L.runtimeInfo(TRIPLES.x86_64).cflags.split(' '),
      '-O1', '-c', join(config.root, 'tests/inputs/repro', f), '-o', o]);
    return o;
  });
  const n = run(config.linklab, table, '5 6\n');
  expect(n.stdout).toMatch(/mul\(5, 6\) = 30/);
  expect(run(process.execPath, wasmCli(table), '5 6\n')).toEqual(n);
});
