// The package's Debugger over a spawned linklab-executor (the executor
// protocol's debug-stop / debug-resume): the gallery's GOT-and-PLT example
// (two -fPIC objects, calls through stubs) and a faulting program, with
// the C runtime, on all three triples. Every wait is bounded by the
// executor's limits and a step count.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { LinkSession, LinklabError, runtimeInfo } from '../index.mjs';
import { readRuntimeFiles, spawnExecutor } from '../node.mjs';
import { config, read, runNative } from './helpers.mjs';

const dir = join(config.work, 'debug');
mkdirSync(dir, { recursive: true });
// Each object keeps its source's name (gotplt-main.o), in a folder per arch.
function compile(arch, src, extra = []) {
  mkdirSync(join(dir, arch), { recursive: true });
  const out = join(dir, arch, basename(src).replace(/\.[cs]$/, '.o'));
  const cflags = runtimeInfo(`${arch}-unknown-linux-gnu`).cflags.split(' ');
  const args = ['-c', '-O1', '-fno-stack-protector', ...extra, ...cflags, join(config.root, src), '-o', out];
  execFileSync('clang-22', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  return out;
}
const GOTPLT = ['web/examples/gotplt-main.c', 'web/examples/gotplt-lib.c'];
const EXPECTED = 'add(5, 3) = 8\nmul(6, 3) = 18\nsub(7, 3) = 4\nadd(mul(2, 3), sub(9, 4)) = 11\n';

// A session over its own executor with the objects, each object's
// post-fixup graph recorded (the stops' fixups), output collected.
async function debugSession(arch, paths, args = [], harness = []) {
  const triple = `${arch}-unknown-linux-gnu`;
  const x = await spawnExecutor(triple);
  const s = new LinkSession({ executor: x });
  const graphs = [];
  const names = paths.map((p) => p.split('/').pop());
  s.addPass('post-fixup', (g) => graphs.push({ object: g.object, graph: g.data() }), { objects: names });
  paths.forEach((p, i) => s.addObject(read(p), { name: names[i], harness: !!harness[i] }));
  const out = { stdout: '' };
  const onOutput = (stream, b) => { out[stream] = (out[stream] ?? '') + Buffer.from(b); };
  const d = s.debug({ argv0: 'prog', args, runtime: 'default', runtimeFiles: readRuntimeFiles(triple), graphs,
                      limits: { wallMillis: 20000 }, idleMillis: 30000, onOutput });
  // A test that failed while the program was stopped ends it first (the
  // executor serves the hangup once the run is over).
  const close = async () => {
    if (d.stop && d.stop.reason !== 'exited') await d.kill().catch(() => {});
    await x.close();
  };
  return { d, s, x, close, out };
}

describe.each(['x86_64', 'aarch64', 'riscv64'])('%s', (arch) => {
  test('stops at the entry, breaks in a PLT stub, steps into the callee, over calls, to the exit', async () => {
    const { d, s, close, out } = await debugSession(arch, GOTPLT.map((src) => compile(arch, src, ['-fPIC'])));
    try {
      const first = await d.started;
      expect(first.reason).toBe('entry');
      expect(first.symbol).toMatch(/^_start\+0x0 in \.text of /);
      expect(first.instructionSize).toBe(0);
      expect(Object.keys(first.registers)).toContain(arch === 'x86_64' ? 'rip' : 'pc');
      // A breakpoint in a stub and one on a GOT entry each say what they are.
      // x86-64's link calls mul directly (the call's stub edge was in
      // range: relaxed), so its stub is never run; the others go through it.
      const viaStub = arch !== 'x86_64';
      const info = s.linkInfo({ contentOf: [] }).find((o) => o.name === 'gotplt-main.o');
      const bps = d.setBreakpoints(['mul@plt', info.gotEntries.counter]);
      expect(bps.map((b) => b.where)).toEqual([
        viaStub ? 'stub for mul' : 'stub for mul: no call goes through it (the link calls mul directly)',
        'GOT entry for counter: data, never executed']);
      expect(() => d.setBreakpoints(['no_such_function']))
        .toThrow("breakpoint 'no_such_function': no symbol of that name in the link");

      let st;
      if (viaStub) {
        d.setBreakpoints(['mul@plt']);
        st = await d.continue();
        expect(st.reason).toBe('breakpoint');
        expect(st.breakpoint.spec).toBe('mul@plt');
        expect(st.symbol).toBe('mul@plt+0x0 in $__STUBS of gotplt-main.o');
        expect(st.location.table).toBe('stub for mul');
        expect(st.location.block.section).toBe('$__STUBS');
        // The stub's first instruction reaches mul's GOT entry.
        const fixups = st.fixups.map((f) => [f.target, f.targetAddress]);
        expect(fixups).toContainEqual(['GOT entry for mul', info.gotEntries.mul]);
        expect(st.backtrace[1].symbol).toMatch(/^main\+0x[0-9a-f]+ in \.text of gotplt-main\.o$/);
        // Through the stub's few instructions into mul.
        for (let i = 0; i < 6 && !st.symbol.startsWith('mul+0x0 '); i++) {
          st = await d.stepInstruction();
          expect(st.reason).toBe('step');
          expect(st.instructionSize).toBeGreaterThan(0);
          expect(st.symbol).toMatch(/^(mul@plt|mul)\+/);
        }
      } else {
        // mul's second call: main's own (the first is the loop's, through ops[]).
        d.setBreakpoints(['mul']);
        await d.continue();
        st = await d.continue();
        expect(st.reason).toBe('breakpoint');
      }
      expect(st.symbol).toBe('mul+0x0 in .text of gotplt-lib.o');
      expect(st.backtrace[1].symbol).toMatch(/^main\+0x[0-9a-f]+ in \.text of gotplt-main\.o$/);
      const back = st.backtrace[1].address;
      // Out of mul (a leaf of two instructions) back into main, after the call.
      for (let i = 0; i < 4 && !st.symbol.startsWith('main+'); i++) st = await d.stepOver();
      expect(st.pc).toBe(back);
      // Step over the rest of main (its calls of sub, add and printf through
      // their stubs run whole): every stop is in main until its return.
      let steps = 0;
      while (steps < 60 && st.symbol.startsWith('main+')) {
        st = await d.stepOver();
        expect(st.reason).toBe('step');
        steps++;
      }
      expect(steps).toBeGreaterThan(3);
      expect(steps).toBeLessThan(60);
      expect(st.symbol).not.toMatch(/^(main|sub|add|printf)\+/); // main's caller in the C runtime
      const mem = await d.readMemory(st.stack.address, 16);
      expect(mem).toEqual(st.stack.bytes.subarray(0, 16));
      await expect(d.readMemory(0, 16)).rejects.toThrow('debug-resume: cannot read 16 bytes at 0x0: not mapped');
      const end = await d.continue();
      expect(end.reason).toBe('exited');
      expect(end.result.exitCode).toBe(0);
      expect(out.stdout).toBe(EXPECTED);
      await expect(d.continue()).rejects.toThrow('debugger: the program is not stopped');
    } finally {
      await close();
    }
  });

  test('runs to a fault, which stops before it takes its course', async () => {
    const { d, close } = await debugSession(arch, [compile(arch, 'tests/inputs/run/faults.c')], ['r']);
    try {
      await d.started;
      d.setBreakpoints(['read_bad']);
      const st = await d.runToFault(); // breakpoints off
      expect(st.reason).toBe('fault');
      expect(st.fault).toEqual({ kind: 'read of unmapped memory', address: 0x123458 });
      expect(st.symbol).toMatch(/^read_bad\+0x[0-9a-f]+ in \.text of /);
      expect(st.backtrace.length).toBeGreaterThan(1); // main, or its caller where main tail-calls read_bad
      const end = await d.continue();
      expect(end.result.status).toBe('fault');
      expect(end.result.error).toMatch(/read_bad\+0x[0-9a-f]+ in \.text of /);
    } finally {
      await close();
    }
  });
});

// The backtrace is gdb's. The same objects are linked by `linklab -gdb
// -debug-script` and debugged by gdb-multiarch, which stops at `break leaf`
// two calls deep (leaf, -O0, under middle, -O2, under order, qsort's
// comparison, under the C runtime's qsort and main) and prints each frame's
// pc (`set backtrace past-main on`: down to _start); the package stopped at
// that pc gives the same frames, address for address, function for function.
function gdbFrames(arch, objects) {
  const script = join(dir, arch, 'unwind.gdb');
  const cmds = join(dir, arch, 'unwind.commands');
  writeFileSync(cmds, 'set backtrace past-main on\nbreak leaf\ncontinue\nframe apply all -q p $pc\nkill\n');
  const linklab = spawn(config.linklab, ['-gdb', `-debug-script=${script}`, ...objects],
                        { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let err = '', started = false;
    linklab.stderr.on('data', (b) => {
      err += b;
      const port = /target extended-remote (127\.0\.0\.1:\d+)/.exec(err);
      if (!port || started) return;
      started = true;
      const r = spawnSync('gdb-multiarch', ['-q', '-batch', '-nx', '-x', script, '-ex', `target remote ${port[1]}`,
                                            '-x', cmds], { encoding: 'utf8', timeout: 120000 });
      // "$3 = (void (*)()) 0x100020a2 <order+34>": each frame's pc, its function and offset.
      const frames = [...(r.stdout + r.stderr).matchAll(/^\$\d+ = .* (0x[0-9a-f]+) <([^>+]+)(?:\+(\d+))?>$/gm)]
        .map((m) => ({ address: Number(m[1]), fn: m[2], offset: Number(m[3] ?? 0) }));
      resolve({ frames, output: r.stdout + r.stderr });
    });
    linklab.on('exit', (code) => started || reject(new Error(`linklab exited ${code}: ${err}`)));
  }).finally(() => linklab.kill());
}

describe.each(['x86_64', 'aarch64', 'riscv64'])('%s backtrace', (arch) => {
  test('unwinds through the call-frame information to the frames gdb shows', async () => {
    // RISC-V: no linker relaxation, so that gdb's line table (its `break
    // leaf`) describes the code as linked.
    const extra = ['-g', ...(arch === 'riscv64' ? ['-mno-relax'] : [])];
    const objects = [compile(arch, 'tests/inputs/debug/unwind.c', [...extra, '-O0']),
                     compile(arch, 'tests/inputs/debug/unwind_mid.c', [...extra, '-O2'])];
    const gdb = await gdbFrames(arch, objects);
    expect(gdb.frames.map((f) => f.fn)).toEqual(expect.arrayContaining(['leaf', 'middle', 'order', 'main', '_start']));
    const { d, s, close } = await debugSession(arch, objects);
    try {
      await d.started;
      d.setBreakpoints([gdb.frames[0].address]); // where gdb's `break leaf` stopped, past leaf's prologue
      const st = await d.continue();
      expect(st.symbol).toMatch(/^leaf\+0x[0-9a-f]+ in \.text of unwind\.o$/);
      // Every name at each address (gdb may pick another alias: qsort_r for
      // __qsort_r), without GCC's clone numbers (gdb: msort_with_tmp.part).
      const names = new Map();
      for (const o of s.linkInfo({ contentOf: [] }))
        for (const [n, x] of [...Object.entries(o.symbols), ...Object.entries(o.prunedFunctions)])
          names.set(x.address, [...(names.get(x.address) ?? []), n.replace(/\.\d+$/, '')]);
      const ours = st.backtrace.map((f) => {
        const m = /^(.+)\+0x([0-9a-f]+) in /.exec(f.symbol);
        const offset = m ? parseInt(m[2], 16) : -1;
        return { address: f.address, offset, names: names.get(f.address - offset) ?? [] };
      });
      expect(ours.map((f) => [f.address, f.offset])).toEqual(gdb.frames.map((f) => [f.address, f.offset]));
      ours.forEach((f, i) => expect([i, f.names]).toEqual([i, expect.arrayContaining([gdb.frames[i].fn])]));
      // The package names the frame by one of them.
      const named = (symbol) => /^(.+)\+0x/.exec(symbol)[1].replace(/\.\d+$/, '');
      ours.forEach((f, i) => expect(f.names).toContain(named(st.backtrace[i].symbol)));
    } finally {
      await close();
    }
  });
});

// Every gallery example runs under the debugger to the outcome the native
// linklab gives it: stopped at main, stepped over a few instructions, continued.
const GALLERY = JSON.parse(readFileSync(join(config.root, 'web/examples/gallery.json'), 'utf8')).examples;
describe.each(['x86_64', 'aarch64', 'riscv64'])('%s gallery', (arch) => {
  test.each(GALLERY.filter((ex) => ex.id !== 'gotplt').map((ex) => [ex.id, ex]))('%s', async (id, ex) => {
    const objects = ex.objects.map((o) => ({
      path: compile(arch, `web/examples/${o.src.replace('{arch}', arch)}`, o.cflags ?? []), harness: !!o.harness }));
    // What the native linklab makes of the same objects, undebugged (-harness
    // and -args each take the rest of the line; no example has both).
    const n = runNative([...objects.flatMap((o) => (o.harness ? ['-harness', o.path] : [o.path])),
                         ...(ex.args ? ['-args', 'prog', ...ex.args] : [])]);
    const want = { exitCode: n.status, stdout: n.stdout };
    const { d, close, out } = await debugSession(arch, objects.map((o) => o.path), ex.args ?? [],
                                                 objects.map((o) => o.harness));
    try {
      await d.started;
      d.setBreakpoints(['main']);
      let st = await d.continue();
      expect(st.reason).toBe('breakpoint');
      expect(st.symbol).toMatch(/^main\+0x0 in \.text of /);
      for (let i = 0; i < 3; i++) {
        st = await d.stepOver();
        expect(st.symbol).toMatch(/^main\+0x[0-9a-f]+ in /);
      }
      d.setBreakpoints([]);
      const end = await d.continue();
      expect({ exitCode: end.result.exitCode, stdout: out.stdout }).toEqual(want);
    } finally {
      await close();
    }
  });
});

test('closing the executor ends a program left stopped', async () => {
  const { d, x } = await debugSession('x86_64', GOTPLT.map((src) => compile('x86_64', src, ['-fPIC'])));
  await d.started;
  await x.close(); // not the idle limit's 30 s: the run is killed first
  const r = await d.result;
  expect(r.description).toMatch(/^killed by SIGKILL/);
});

test('a session without an executor cannot debug; kill ends the run', async () => {
  expect(() => new LinkSession({ triple: 'x86_64-unknown-linux-gnu' }).debug()).toThrow(LinklabError);
  const { d, close } = await debugSession('x86_64', GOTPLT.map((src) => compile('x86_64', src, ['-fPIC'])));
  try {
    await d.started;
    const end = await d.kill();
    expect(end.result.status).toBe('killed by a signal');
    expect(end.result.description).toMatch(/^killed by SIGKILL/);
  } finally {
    await close();
  }
});
