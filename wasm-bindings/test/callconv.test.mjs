// Calling conventions in wasm sessions, as the native CLI installs them:
// .linklab.callconv sections of added objects and `conventions` entries (-cc
// in linklab-run) route standard calls through bridge thunks; planner
// warnings reach `warnings` / onWarning and linklab-run's stderr.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { inspect, LinkSession, LinklabError } from '../index.mjs';
import { spawnExecutor } from '../node.mjs';
import { config, read, runNative, runWasm } from './helpers.mjs';

const ARCHES = {
  x86_64: { triple: 'x86_64-unknown-linux-gnu', mc: [], cc: ['--target=x86_64-linux-gnu'] },
  aarch64: { triple: 'aarch64-unknown-linux-gnu', mc: [], cc: ['--target=aarch64-linux-gnu'] },
  riscv64: {
    triple: 'riscv64-unknown-linux-gnu', mc: ['-mattr=+d'], cc: ['--target=riscv64-linux-gnu', '-march=rv64gc'],
  },
};
const dir = join(config.work, 'callconv');
mkdirSync(dir, { recursive: true });
const run = (cmd, args) => execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });

// Per arch: custom.o (functions in custom registers, with their
// .linklab.callconv), bare.o (the same without the section), caller.o
// (standard C calls to them; main returns how many results are wrong) and
// ind.o (takes add3's address: a planner warning).
function objects(arch) {
  const a = ARCHES[arch], o = (n) => join(dir, `${arch}-${n}.o`);
  run('llvm-mc-22', [`-triple=${a.triple}`, ...a.mc, '-filetype=obj', '-o', o('custom'),
                     join(config.root, `tests/inputs/callconv/${arch}_custom.s`)]);
  run('llvm-objcopy-22', ['--remove-section=.linklab.callconv', o('custom'), o('bare')]);
  run('clang-22', [...a.cc, '-O1', '-ffreestanding', '-c', join(config.root, 'tests/inputs/callconv/caller.c'),
                   '-o', o('caller')]);
  const ind = join(dir, 'ind.c');
  execFileSync('sh', ['-c', `printf '%s\\n' 'long add3(long, long, long);' \
                         'long (*volatile FP)(long, long, long) = add3;' \
                         'int main(void) { return FP == 0; }' > ${ind}`]);
  run('clang-22', [...a.cc, '-O1', '-ffreestanding', '-c', ind, '-o', o('ind')]);
  return { custom: o('custom'), bare: o('bare'), caller: o('caller'), ind: o('ind') };
}

// The entries of an object's .linklab.callconv section, NUL-separated.
function sectionEntries(path) {
  const b = read(path);
  const s = inspect(b, path).sections.find((x) => x.name === '.linklab.callconv');
  return Buffer.from(b.subarray(s.offset, s.offset + s.size)).toString('latin1').split('\0').filter(Boolean);
}

const SLAB = ['-noexec', '-no-process-syms', '-slab-allocate=1Mb', '-slab-address=0x10000', '-slab-page-size=4096'];

describe.each(Object.keys(ARCHES))('%s', (arch) => {
  const o = objects(arch);
  const entries = sectionEntries(o.custom);

  test('the objects carry conventions (so the cases below test something)', () => {
    expect(entries.length).toBeGreaterThan(3);
    expect(inspect(read(o.bare)).sections.some((s) => s.name === '.linklab.callconv')).toBe(false);
  });

  test('runs: embedded conventions and `conventions` make main right; without them it is wrong', async () => {
    const x = await spawnExecutor(ARCHES[arch].triple);
    try {
      const exit = async (files, conventions = []) => {
        const s = new LinkSession({ executor: x, conventions });
        for (const f of files) s.addObject(read(f), { name: f });
        const r = await s.run({ limits: { instructions: 1e7 } });
        s.dispose();
        return r.exitCode ?? r.error;
      };
      expect(await exit([o.caller, o.custom])).toBe(0);
      expect(await exit([o.caller, o.bare])).not.toBe(0);
      expect(await exit([o.caller, o.bare], entries)).toBe(0);
    } finally {
      await x.close();
    }
  });

  test('linklab-run -cc: thunks in the graphs, as the native CLI links them', async () => {
    const args = [...SLAB, '-show-graphs=.*', ...entries.map((e) => `-cc=${e}`), o.caller, o.bare];
    const n = runNative(args), w = await runWasm(args);
    expect(n.status).toBe(0);
    expect(n.stdout).toContain('add3.ccthunk');
    expect(w.stdout).toBe(n.stdout);
    expect(w.stderr).toBe(n.stderr);
    expect(w.status).toBe(0);
  });

  test('linklab-run -cc: planner warnings on stderr as natively', async () => {
    const args = [...SLAB, '-show-graphs=.*', ...entries.map((e) => `-cc=${e}`), o.ind, o.bare];
    const n = runNative(args), w = await runWasm(args);
    expect(n.status).toBe(0);
    expect(n.stderr).toMatch(/^linklab warning: .*address of 'add3' taken for an indirect call/);
    expect(w.stdout).toBe(n.stdout);
    expect(w.stderr).toBe(n.stderr);
  });

  test('warnings array and onWarning; a throwing onWarning fails the link', async () => {
    const seen = [];
    const s = new LinkSession({ slabAddress: 0x10000, onWarning: (m) => seen.push(m), conventions: entries });
    s.addObject(read(o.ind), { name: 'ind.o' }).addObject(read(o.bare), { name: 'bare.o' });
    await s.link();
    expect(s.warnings.some((m) => m.includes("address of 'add3' taken"))).toBe(true);
    expect(seen).toEqual(s.warnings);

    const t = new LinkSession({ slabAddress: 0x10000, conventions: entries,
                                onWarning: () => { throw new Error('boom'); } });
    t.addObject(read(o.ind), { name: 'ind.o' }).addObject(read(o.bare), { name: 'bare.o' });
    await expect(t.link()).rejects.toThrow('onWarning handler: boom');
  });
});

describe('errors', () => {
  const caller = () => read(join(dir, 'x86_64-caller.o'));
  test('a bad entry: at once with a triple, at the first object without; wording as native -cc', async () => {
    const bad = 'add3=i64(i64;gpr:rcx';
    expect(() => new LinkSession({ triple: 'x86_64-unknown-linux-gnu', conventions: [bad] })).toThrow(LinklabError);
    const s = new LinkSession({ conventions: [bad] });
    let message;
    try { s.addObject(caller(), { name: 'caller.o' }); } catch (e) { message = e.message; }
    expect(message).toMatch(/^conventions: 'add3=i64\(i64;gpr:rcx': /);
    const n = runNative([...SLAB, `-cc=${bad}`, join(dir, 'x86_64-caller.o')]);
    const w = await runWasm([...SLAB, `-cc=${bad}`, join(dir, 'x86_64-caller.o')]);
    expect(n.stderr).toBe(`linklab error: -cc${message.slice('conventions'.length)}\n`);
    expect(w.stderr).toBe(n.stderr);
    expect(w.status).toBe(n.status);
  });
  test('a symbol given two conventions names both origins', () => {
    const s = new LinkSession({ conventions: ['add3=i64(i64,i64,i64);gpr:rcx,r8,r11;ret:rax'] });
    expect(() => s.addObject(read(join(dir, 'x86_64-custom.o')), { name: 'custom.o' }))
      .toThrow(/custom.o: .linklab.callconv entry 0 .*'add3' already has a convention \(from conventions\)/);
  });
});
